// Reading a user's text file (a scene, a .poly mesh) whole, refusing what is not one: a FIFO
// would block the reader forever and a link to /dev/zero or /dev/urandom never ends, so only
// regular files (after following links) of a bounded size are read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace pegsim {

// The largest text file read: scenes and meshes are kilobytes to a few megabytes.
constexpr std::uintmax_t kMaxTextFileBytes = 64u << 20;

// The file's bytes. Throws SceneError "<file>: expected <what> (...)" naming why it cannot be
// read: missing, not a regular file, larger than kMaxTextFileBytes, or unreadable.
std::string read_text_file(const std::filesystem::path& file, const std::string& what);

}  // namespace pegsim
