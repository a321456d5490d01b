#include "io/text_file.hpp"

#include <fstream>
#include <sstream>

#include "io/scene.hpp"

namespace pegsim {

std::string read_text_file(const std::filesystem::path& file, const std::string& what) {
  auto fail = [&](const std::string& why) -> std::string {
    throw SceneError(file.string() + ": expected " + what + " (" + why + ")");
  };
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(file, ec);
  if (ec || !std::filesystem::exists(status)) return fail("there is no such file");
  if (!std::filesystem::is_regular_file(status))
    return fail(std::filesystem::is_directory(status) ? "it is a folder"
                                                      : "it is not a regular file");
  const std::uintmax_t size = std::filesystem::file_size(file, ec);
  if (ec) return fail("cannot read its size");
  if (size > kMaxTextFileBytes)
    return fail("it has " + std::to_string(size) + " bytes, more than the " +
                std::to_string(kMaxTextFileBytes) + " read");
  std::ifstream in(file, std::ios::binary);
  if (!in) return fail("cannot open it");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return fail("reading it failed");
  return text.str();
}

}  // namespace pegsim
