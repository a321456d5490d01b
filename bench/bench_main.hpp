// The benchmarks whose cases are known only at run time (scenes, problem files) register them
// in register_all; bench_main.cpp calls it before Google Benchmark reads its arguments.
#pragma once

namespace pegsim::bench {
void register_all();
}  // namespace pegsim::bench
