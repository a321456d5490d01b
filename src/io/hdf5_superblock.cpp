#include "io/hdf5_superblock.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <string>
#include <system_error>

namespace pegsim::h5 {
namespace {

constexpr std::array<unsigned char, 8> kSignature = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

// Little-endian unsigned of `size` bytes at `p` (size <= 8).
std::uint64_t unsigned_at(const unsigned char* p, int size) {
  std::uint64_t v = 0;
  for (int i = size - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

bool read_at(std::ifstream& in, std::uint64_t at, unsigned char* out, std::size_t n) {
  in.clear();
  in.seekg(static_cast<std::streamoff>(at));
  in.read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(n));
  return in.gcount() == static_cast<std::streamsize>(n);
}

}  // namespace

std::string superblock_defect(const std::filesystem::path& file) {
  std::error_code ec;
  const std::uint64_t file_size = std::filesystem::file_size(file, ec);
  if (ec) return {};
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  // The superblock is at byte 0, 512, 1024, 2048, ... (§II.A, "Format Signature").
  std::array<unsigned char, 64> sb{};
  std::uint64_t at = 0;
  while (true) {
    if (at + 64 > file_size) return {};
    if (!read_at(in, at, sb.data(), sb.size())) return {};
    if (std::equal(kSignature.begin(), kSignature.end(), sb.begin())) break;
    at = at == 0 ? 512 : 2 * at;
  }
  const int version = sb[8];
  const int offsets = sb[13];  // "Size of Offsets"
  if (version > 1 || (offsets != 2 && offsets != 4 && offsets != 8)) return {};
  // Base address, free-space address, end-of-file address, driver information block address.
  const unsigned char* addresses = sb.data() + (version == 0 ? 24 : 28);
  const std::uint64_t undefined =
      offsets == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * offsets)) - 1;
  const std::uint64_t base = unsigned_at(addresses, offsets);
  const std::uint64_t driver = unsigned_at(addresses + 3 * offsets, offsets);
  if (driver == undefined) return {};
  // The driver information block: version, 3 reserved bytes, its 4-byte size, an 8-byte
  // driver name, then that many bytes (§II.B).
  constexpr std::uint64_t kHeader = 16;
  const std::uint64_t block = base + driver;
  if (block < base || block > file_size || file_size - block < kHeader)
    return "the superblock's driver information block (at byte " + std::to_string(block) +
           ") lies past the end of the file (" + std::to_string(file_size) + " bytes)";
  std::array<unsigned char, 4> size_bytes{};
  if (!read_at(in, block + 4, size_bytes.data(), size_bytes.size())) return {};
  const std::uint64_t size = unsigned_at(size_bytes.data(), 4);
  if (size > file_size - block - kHeader)
    return "the superblock's driver information block (" + std::to_string(size) +
           " bytes at byte " + std::to_string(block) + ") lies past the end of the file (" +
           std::to_string(file_size) + " bytes)";
  return {};
}

}  // namespace pegsim::h5
