#include "io/hdf5_io.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>

namespace pegsim::h5 {
namespace {

Handle string_type(std::size_t size) {
  Handle t = type(H5Tcopy(H5T_C_S1));
  H5Tset_size(t.get(), std::max<std::size_t>(size, 1));
  H5Tset_strpad(t.get(), H5T_STR_NULLPAD);
  return t;
}

void check(herr_t status, const std::string& what) {
  if (status < 0) {
    const std::string why = last_error();
    throw Failure(what + (why.empty() ? "" : " (" + why + ")"));
  }
}

Handle checked(Handle h, const std::string& what) {
  if (!h.valid()) check(-1, what);
  return h;
}

void write_attribute_raw(hid_t object, const char* name, hid_t memory_type, hid_t space_id,
                         const void* data) {
  if (H5Aexists(object, name) > 0) H5Adelete(object, name);
  Handle a =
      checked(attribute(H5Acreate2(object, name, memory_type, space_id, H5P_DEFAULT, H5P_DEFAULT)),
              std::string("cannot create attribute ") + name);
  check(H5Awrite(a.get(), memory_type, data), std::string("cannot write attribute ") + name);
}

Handle open_attribute(hid_t object, const char* name) {
  if (H5Aexists(object, name) <= 0) {
    H5Eclear2(H5E_DEFAULT);
    throw Failure(std::string("missing attribute ") + name);
  }
  return checked(attribute(H5Aopen(object, name, H5P_DEFAULT)),
                 std::string("cannot open attribute ") + name);
}

hssize_t element_count(hid_t space_id) {
  return H5Sget_simple_extent_npoints(space_id);
}

// Fixed-length strings of `count` elements of `size` bytes each, trimmed of padding.
std::vector<std::string> split_fixed(const std::vector<char>& raw, std::size_t size,
                                     std::size_t count) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count; ++i) {
    const char* s = raw.data() + i * size;
    out.emplace_back(s, strnlen(s, size));
  }
  return out;
}

std::vector<std::string> read_fixed_strings(hid_t type_id, hid_t space_id, const char* name,
                                            const std::function<herr_t(hid_t, void*)>& read) {
  if (H5Tget_class(type_id) != H5T_STRING || H5Tis_variable_str(type_id) > 0)
    throw Failure(std::string(name) + ": expected a fixed-length string");
  const std::size_t size = H5Tget_size(type_id);
  const hssize_t n = element_count(space_id);
  if (n < 0) check(-1, std::string("cannot read ") + name);
  std::vector<char> raw(size * static_cast<std::size_t>(n) + 1, '\0');
  Handle memory = string_type(size);
  check(read(memory.get(), raw.data()), std::string("cannot read ") + name);
  return split_fixed(raw, size, static_cast<std::size_t>(n));
}

}  // namespace

void write_attribute(hid_t object, const char* name, const std::string& value) {
  Handle t = string_type(value.size());
  Handle s = space(H5Screate(H5S_SCALAR));
  std::string padded = value;
  padded.resize(std::max<std::size_t>(value.size(), 1), '\0');
  write_attribute_raw(object, name, t.get(), s.get(), padded.data());
}

void write_attribute(hid_t object, const char* name, const std::vector<std::string>& values) {
  std::size_t size = 1;
  for (const std::string& v : values) size = std::max(size, v.size());
  std::vector<char> raw(size * values.size(), '\0');
  for (std::size_t i = 0; i < values.size(); ++i)
    std::memcpy(raw.data() + i * size, values[i].data(), values[i].size());
  Handle t = string_type(size);
  const hsize_t n = values.size();
  Handle s = space(H5Screate_simple(1, &n, nullptr));
  write_attribute_raw(object, name, t.get(), s.get(), raw.data());
}

void write_attribute(hid_t object, const char* name, std::int64_t value) {
  Handle s = space(H5Screate(H5S_SCALAR));
  write_attribute_raw(object, name, H5T_NATIVE_INT64, s.get(), &value);
}

void write_attribute(hid_t object, const char* name, const std::vector<double>& values) {
  const hsize_t n = values.size();
  Handle s = space(H5Screate_simple(1, &n, nullptr));
  write_attribute_raw(object, name, H5T_NATIVE_DOUBLE, s.get(), values.data());
}

bool has_attribute(hid_t object, const char* name) {
  const htri_t r = H5Aexists(object, name);
  H5Eclear2(H5E_DEFAULT);
  return r > 0;
}

std::string read_string_attribute(hid_t object, const char* name) {
  Handle a = open_attribute(object, name);
  Handle t = type(H5Aget_type(a.get()));
  Handle s = space(H5Aget_space(a.get()));
  if (element_count(s.get()) != 1) throw Failure(std::string(name) + ": expected one string");
  const hid_t id = a.get();
  return read_fixed_strings(t.get(), s.get(), name,
                            [id](hid_t m, void* d) { return H5Aread(id, m, d); })[0];
}

std::vector<std::string> read_strings_attribute(hid_t object, const char* name) {
  Handle a = open_attribute(object, name);
  Handle t = type(H5Aget_type(a.get()));
  Handle s = space(H5Aget_space(a.get()));
  const hid_t id = a.get();
  return read_fixed_strings(t.get(), s.get(), name,
                            [id](hid_t m, void* d) { return H5Aread(id, m, d); });
}

std::int64_t read_int_attribute(hid_t object, const char* name) {
  Handle a = open_attribute(object, name);
  Handle t = type(H5Aget_type(a.get()));
  Handle s = space(H5Aget_space(a.get()));
  if (H5Tget_class(t.get()) != H5T_INTEGER || element_count(s.get()) != 1)
    throw Failure(std::string(name) + ": expected one integer");
  std::int64_t v = 0;
  check(H5Aread(a.get(), H5T_NATIVE_INT64, &v), std::string("cannot read ") + name);
  return v;
}

std::vector<double> read_doubles_attribute(hid_t object, const char* name) {
  Handle a = open_attribute(object, name);
  Handle t = type(H5Aget_type(a.get()));
  Handle s = space(H5Aget_space(a.get()));
  const H5T_class_t c = H5Tget_class(t.get());
  if (c != H5T_FLOAT && c != H5T_INTEGER) throw Failure(std::string(name) + ": expected numbers");
  std::vector<double> v(static_cast<std::size_t>(std::max<hssize_t>(element_count(s.get()), 0)));
  check(H5Aread(a.get(), H5T_NATIVE_DOUBLE, v.data()), std::string("cannot read ") + name);
  return v;
}

void write_dataset(hid_t location, const char* name, hid_t memory_type, hid_t file_type,
                   const std::vector<hsize_t>& dims, const void* data) {
  Handle s = space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr));
  Handle d = checked(dataset(H5Dcreate2(location, name, file_type, s.get(), H5P_DEFAULT,
                                        H5P_DEFAULT, H5P_DEFAULT)),
                     std::string("cannot create ") + name);
  const bool empty = std::find(dims.begin(), dims.end(), hsize_t{0}) != dims.end();
  if (!empty)
    check(H5Dwrite(d.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data),
          std::string("cannot write ") + name);
}

void write_string_dataset(hid_t location, const char* name, const std::string& text) {
  Handle t = string_type(text.size());
  Handle s = space(H5Screate(H5S_SCALAR));
  Handle d = checked(
      dataset(H5Dcreate2(location, name, t.get(), s.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)),
      std::string("cannot create ") + name);
  std::string padded = text;
  padded.resize(std::max<std::size_t>(text.size(), 1), '\0');
  check(H5Dwrite(d.get(), t.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, padded.data()),
        std::string("cannot write ") + name);
}

std::string read_string_dataset(hid_t location, const char* name) {
  Handle d = open_dataset(location, name);
  Handle t = type(H5Dget_type(d.get()));
  Handle s = space(H5Dget_space(d.get()));
  if (element_count(s.get()) != 1) throw Failure(std::string(name) + ": expected one string");
  const hid_t id = d.get();
  return read_fixed_strings(t.get(), s.get(), name, [id](hid_t m, void* data) {
    return H5Dread(id, m, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
  })[0];
}

void write_strings_dataset(hid_t location, const char* name,
                           const std::vector<std::string>& values) {
  std::size_t size = 1;
  for (const std::string& v : values) size = std::max(size, v.size());
  std::vector<char> raw(size * values.size() + 1, '\0');
  for (std::size_t i = 0; i < values.size(); ++i)
    std::memcpy(raw.data() + i * size, values[i].data(), values[i].size());
  Handle t = string_type(size);
  write_dataset(location, name, t.get(), t.get(), {values.size()}, raw.data());
}

std::vector<std::string> read_strings_dataset(hid_t location, const char* name) {
  Handle d = open_dataset(location, name);
  Handle t = type(H5Dget_type(d.get()));
  Handle s = space(H5Dget_space(d.get()));
  dims(d.get(), 1, name);
  const hid_t id = d.get();
  return read_fixed_strings(t.get(), s.get(), name, [id](hid_t m, void* data) {
    return H5Dread(id, m, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
  });
}

Handle open_dataset(hid_t location, const char* name) {
  // H5Lexists fails on a missing intermediate group; check each step of the path.
  std::string path;
  const std::string full = name;
  std::size_t pos = 0;
  while (pos != std::string::npos) {
    const std::size_t next = full.find('/', pos + 1);
    path = full.substr(0, next);
    if (!path.empty() && path != "/" && H5Lexists(location, path.c_str(), H5P_DEFAULT) <= 0) {
      H5Eclear2(H5E_DEFAULT);
      throw Failure(std::string("missing dataset ") + name);
    }
    pos = next;
  }
  Handle d = checked(dataset(H5Dopen2(location, name, H5P_DEFAULT)),
                     std::string("cannot open dataset ") + name);
  if (!storage_is_whole(d.get()))
    throw Failure(std::string("damaged dataset ") + name +
                  ": its stored data does not match its size");
  return d;
}

std::vector<hsize_t> dims(hid_t dataset_id, int rank, const char* name) {
  Handle s = space(H5Dget_space(dataset_id));
  const int r = H5Sget_simple_extent_ndims(s.get());
  if (r != rank)
    throw Failure(std::string(name) + ": expected " + std::to_string(rank) + " dimensions, found " +
                  std::to_string(r));
  std::vector<hsize_t> d(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(s.get(), d.data(), nullptr);
  return d;
}

template <typename T>
std::vector<T> read_all(hid_t location, const char* name, hid_t memory_type, int rank,
                        std::vector<hsize_t>* shape) {
  Handle d = open_dataset(location, name);
  const std::vector<hsize_t> ds = dims(d.get(), rank, name);
  if (shape) *shape = ds;
  const hsize_t n = std::accumulate(ds.begin(), ds.end(), hsize_t{1}, std::multiplies<>());
  std::vector<T> out(n);
  if (n > 0)
    check(H5Dread(d.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()),
          std::string("cannot read ") + name);
  return out;
}

template std::vector<double> read_all(hid_t, const char*, hid_t, int, std::vector<hsize_t>*);
template std::vector<float> read_all(hid_t, const char*, hid_t, int, std::vector<hsize_t>*);
template std::vector<std::int32_t> read_all(hid_t, const char*, hid_t, int, std::vector<hsize_t>*);
template std::vector<std::int64_t> read_all(hid_t, const char*, hid_t, int, std::vector<hsize_t>*);
template std::vector<std::int8_t> read_all(hid_t, const char*, hid_t, int, std::vector<hsize_t>*);
template std::vector<std::uint8_t> read_all(hid_t, const char*, hid_t, int, std::vector<hsize_t>*);

Handle create_extendable(hid_t location, const char* name, hid_t file_type,
                         const std::vector<hsize_t>& inner, hsize_t chunk_rows, int level) {
  std::vector<hsize_t> dims0{0}, max{H5S_UNLIMITED}, chunk{std::max<hsize_t>(chunk_rows, 1)};
  for (hsize_t n : inner) {
    dims0.push_back(n);
    max.push_back(n);
    chunk.push_back(std::max<hsize_t>(n, 1));
  }
  const int rank = static_cast<int>(dims0.size());
  Handle s = space(H5Screate_simple(rank, dims0.data(), max.data()));
  Handle p = plist(H5Pcreate(H5P_DATASET_CREATE));
  H5Pset_chunk(p.get(), rank, chunk.data());
  H5Pset_shuffle(p.get());
  H5Pset_deflate(p.get(), static_cast<unsigned>(level));
  return checked(
      dataset(H5Dcreate2(location, name, file_type, s.get(), H5P_DEFAULT, p.get(), H5P_DEFAULT)),
      std::string("cannot create ") + name);
}

namespace {
// Selects rows [first, first + rows) of `file_space`; returns the matching memory space.
Handle row_spaces(hid_t file_space, hsize_t first, hsize_t rows,
                  const std::vector<hsize_t>& inner) {
  std::vector<hsize_t> start{first}, count{rows};
  for (hsize_t n : inner) {
    start.push_back(0);
    count.push_back(n);
  }
  H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr);
  return space(H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr));
}
}  // namespace

void append_rows(hid_t dataset_id, hid_t memory_type, hsize_t at, hsize_t rows,
                 const std::vector<hsize_t>& inner, const void* data, const char* name) {
  if (rows == 0) return;
  std::vector<hsize_t> size{at + rows};
  size.insert(size.end(), inner.begin(), inner.end());
  check(H5Dset_extent(dataset_id, size.data()), std::string("cannot extend ") + name);
  Handle fs = space(H5Dget_space(dataset_id));
  Handle ms = row_spaces(fs.get(), at, rows, inner);
  check(H5Dwrite(dataset_id, memory_type, ms.get(), fs.get(), H5P_DEFAULT, data),
        std::string("cannot write ") + name);
}

void read_rows(hid_t dataset_id, hid_t memory_type, hsize_t first, hsize_t rows,
               const std::vector<hsize_t>& inner, void* data, const char* name) {
  if (rows == 0) return;
  // A type conversion allocates and zeroes a 1 MB buffer per read by default: keep it small,
  // since a frame read is a dozen small reads.
  static const Handle transfer = [] {
    Handle p = plist(H5Pcreate(H5P_DATASET_XFER));
    H5Pset_buffer(p.get(), 64 * 1024, nullptr, nullptr);
    return p;
  }();
  Handle fs = space(H5Dget_space(dataset_id));
  Handle ms = row_spaces(fs.get(), first, rows, inner);
  check(H5Dread(dataset_id, memory_type, ms.get(), fs.get(), transfer.get(), data),
        std::string("cannot read ") + name + " rows " + std::to_string(first) + ".." +
            std::to_string(first + rows));
}

}  // namespace pegsim::h5
