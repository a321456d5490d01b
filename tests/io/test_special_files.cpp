// Files that are not regular files are refused at once, naming the file (issue 28 item 8): a
// FIFO used to block the reader forever, a link to /dev/zero or /dev/urandom to read gigabytes.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "io/poly_file.hpp"
#include "io/scene.hpp"
#include "io/text_file.hpp"

namespace pegsim {
namespace {

namespace fs = std::filesystem;

fs::path temp_dir() {
  const fs::path d = fs::temp_directory_path() / ("pegsim-special-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

// The SceneError of `read`, or "" if it did not throw one.
template <typename Read>
std::string error_of(Read read) {
  try {
    read();
  } catch (const SceneError& e) {
    return e.what();
  }
  return {};
}

TEST(SpecialFiles, AFifoIsRefusedAsASceneAndAsAMesh) {
  const fs::path fifo = temp_dir() / "fifo";
  fs::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& e :
       {error_of([&] { (void)load_scene(fifo); }), error_of([&] { (void)read_poly_file(fifo); })}) {
    EXPECT_EQ(e.find(fifo.string() + ": expected "), 0u) << e;
    EXPECT_NE(e.find("not a regular file"), std::string::npos) << e;
  }
  fs::remove(fifo);
}

TEST(SpecialFiles, LinksToDevicesAreRefusedAndLinksToFilesFollowed) {
  const fs::path dir = temp_dir();
  for (const char* device : {"/dev/zero", "/dev/urandom"}) {
    const fs::path link = dir / "device.poly";
    fs::remove(link);
    fs::create_symlink(device, link);
    const std::string e = error_of([&] { (void)read_poly_file(link); });
    EXPECT_NE(e.find("not a regular file"), std::string::npos) << device << ": " << e;
    fs::remove(link);
  }
  const fs::path real = dir / "real.json", link = dir / "link.json";
  std::ofstream(real) << R"({"bodies": [{"name": "ground", "shape": {"type": "plane"}}]})";
  fs::remove(link);
  fs::create_symlink(real, link);
  EXPECT_EQ(load_scene(link).model.bodies.size(), 1u);
  const std::string folder = error_of([&] { (void)load_scene(dir); });
  EXPECT_NE(folder.find("it is a folder"), std::string::npos) << folder;
  fs::remove_all(dir);
}

TEST(SpecialFiles, AFileLargerThanTheLimitIsRefusedBeforeItIsRead) {
  const fs::path big = temp_dir() / "big.json";
  { std::ofstream out(big); }
  fs::resize_file(big, kMaxTextFileBytes + 1);  // sparse: no disk written
  const std::string e = error_of([&] { (void)load_scene(big); });
  EXPECT_NE(e.find("more than the " + std::to_string(kMaxTextFileBytes)), std::string::npos) << e;
  fs::remove(big);
}

}  // namespace
}  // namespace pegsim
