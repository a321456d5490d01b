#include "io/table_file.hpp"

#include <stdexcept>

#include "io/hdf5_handle.hpp"
#include "io/hdf5_io.hpp"

namespace pegsim {
namespace {

constexpr const char* kGroup = "results";

// A column's dataset name: its own, with '/' (HDF5's path separator) as '_'.
std::string dataset_name(const std::string& column) {
  std::string name = column;
  for (char& c : name)
    if (c == '/') c = '_';
  return name.empty() ? "_" : name;
}

}  // namespace

void write_table_file(const std::filesystem::path& file, const TableFile& table) {
  h5::silence_errors();
  const std::string where = file.string() + ": ";
  try {
    // No modification times in object headers: the same table, the same bytes.
    h5::Handle fcpl = h5::plist(H5Pcreate(H5P_FILE_CREATE));
    h5::Handle dcpl = h5::plist(H5Pcreate(H5P_DATASET_CREATE));
    h5::Handle gcpl = h5::plist(H5Pcreate(H5P_GROUP_CREATE));
    if (!fcpl || !dcpl || !gcpl || H5Pset_obj_track_times(fcpl.get(), 0) < 0 ||
        H5Pset_obj_track_times(dcpl.get(), 0) < 0 || H5Pset_obj_track_times(gcpl.get(), 0) < 0)
      throw h5::Failure("cannot set up its property lists");
    h5::Handle f = h5::file(H5Fcreate(file.c_str(), H5F_ACC_TRUNC, fcpl.get(), H5P_DEFAULT));
    if (!f) throw h5::Failure("cannot be created (" + h5::last_error() + ")");
    std::vector<std::string> names;
    for (const TableColumn& c : table.columns) names.push_back(c.name);
    for (const auto& [key, value] : table.attributes)
      h5::write_attribute(f.get(), key.c_str(), value);
    h5::write_attribute(f.get(), "columns", names);
    h5::Handle g = h5::group(H5Gcreate2(f.get(), kGroup, H5P_DEFAULT, gcpl.get(), H5P_DEFAULT));
    if (!g) throw h5::Failure("cannot create /results");
    for (const TableColumn& c : table.columns) {
      const std::string name = dataset_name(c.name);
      const std::size_t rows = c.text ? c.texts.size() : c.numbers.size();
      h5::Handle space = h5::space(H5Screate_simple(1, std::vector<hsize_t>{rows}.data(), nullptr));
      if (c.text) {
        std::size_t size = 1;
        for (const std::string& v : c.texts) size = std::max(size, v.size());
        std::vector<char> raw(size * rows + 1, '\0');
        for (std::size_t i = 0; i < rows; ++i)
          std::copy(c.texts[i].begin(), c.texts[i].end(), raw.begin() + std::ptrdiff_t(i * size));
        h5::Handle type = h5::type(H5Tcopy(H5T_C_S1));
        H5Tset_size(type.get(), size);
        H5Tset_strpad(type.get(), H5T_STR_NULLPAD);
        h5::Handle d = h5::dataset(H5Dcreate2(g.get(), name.c_str(), type.get(), space.get(),
                                              H5P_DEFAULT, dcpl.get(), H5P_DEFAULT));
        if (!d || (rows > 0 &&
                   H5Dwrite(d.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data()) < 0))
          throw h5::Failure("cannot write column " + c.name);
      } else {
        h5::Handle d = h5::dataset(H5Dcreate2(g.get(), name.c_str(), H5T_IEEE_F64LE, space.get(),
                                              H5P_DEFAULT, dcpl.get(), H5P_DEFAULT));
        if (!d || (rows > 0 && H5Dwrite(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                        c.numbers.data()) < 0))
          throw h5::Failure("cannot write column " + c.name);
      }
    }
    if (H5Fflush(f.get(), H5F_SCOPE_GLOBAL) < 0) throw h5::Failure("cannot be flushed");
  } catch (const h5::Failure& e) {
    throw std::runtime_error(where + e.what());
  }
}

TableFile read_table_file(const std::filesystem::path& file) {
  h5::silence_errors();
  const std::string where = file.string() + ": ";
  TableFile table;
  try {
    h5::Handle f = h5::file(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    if (!f) throw h5::Failure("cannot be opened as HDF5 (" + h5::last_error() + ")");
    const std::vector<std::string> names = h5::read_strings_attribute(f.get(), "columns");
    h5::Handle g = h5::group(H5Gopen2(f.get(), kGroup, H5P_DEFAULT));
    if (!g) throw h5::Failure("missing group /results");
    for (const std::string& name : names) {
      TableColumn c;
      c.name = name;
      const std::string d = dataset_name(name);
      h5::Handle set = h5::open_dataset(g.get(), d.c_str());
      h5::Handle type = h5::type(H5Dget_type(set.get()));
      c.text = H5Tget_class(type.get()) == H5T_STRING;
      if (c.text)
        c.texts = h5::read_strings_dataset(g.get(), d.c_str());
      else
        c.numbers = h5::read_all<double>(g.get(), d.c_str(), H5T_NATIVE_DOUBLE, 1);
      table.columns.push_back(std::move(c));
    }
  } catch (const h5::Failure& e) {
    throw std::runtime_error(where + e.what());
  }
  return table;
}

}  // namespace pegsim
