#include <benchmark/benchmark.h>

#include "bench_main.hpp"

int main(int argc, char** argv) {
  pegsim::bench::register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
