// RAII ownership of HDF5 identifiers, and the error plumbing every HDF5 call site shares.
// Private to src/io: no public header of the io library includes hdf5.h.
#pragma once

#include <hdf5.h>

#include <string>
#include <utility>

namespace pegsim::h5 {

// Owns one identifier (file, group, dataset, dataspace, datatype, property list, attribute)
// and closes it with the matching H5?close.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer close) : id_(id), close_(close) {}
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, -1)), close_(o.close_) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, -1);
      close_ = o.close_;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  explicit operator bool() const { return valid(); }
  void reset() {
    if (id_ >= 0 && close_) close_(id_);
    id_ = -1;
  }

 private:
  hid_t id_ = -1;
  Closer close_ = nullptr;
};

inline Handle file(hid_t id) {
  return {id, H5Fclose};
}
inline Handle group(hid_t id) {
  return {id, H5Gclose};
}
inline Handle dataset(hid_t id) {
  return {id, H5Dclose};
}
inline Handle space(hid_t id) {
  return {id, H5Sclose};
}
inline Handle type(hid_t id) {
  return {id, H5Tclose};
}
inline Handle plist(hid_t id) {
  return {id, H5Pclose};
}
inline Handle attribute(hid_t id) {
  return {id, H5Aclose};
}

// Whether a dataset's stored data covers its dataspace. A damaged object header can give a
// compact dataset (its data kept in the header) fewer bytes than its size asks for, and HDF5
// 1.10 then reads them from a null buffer (a crash found by fuzz_fclib); a contiguous dataset
// can likewise claim less storage than its size. Chunked and never-written datasets (read as
// their fill value) pass; variable-length data is checked by HDF5 as it is read.
bool storage_is_whole(hid_t dataset);

// "" when every object at or below `location` (a file or group) can be read and every
// dataset's storage_is_whole holds, else "PATH: damaged, WHAT" for the first that does not.
// The walk is bounded (16 levels of groups, 10 000 links), so a group linked into itself is
// refused rather than walked for ever.
std::string first_damaged_object(hid_t location);

// Turns off HDF5's automatic printing of error stacks (process-wide, idempotent): every failure
// is reported by us, once, naming the file.
void silence_errors();

// The most specific description on the calling thread's HDF5 error stack (e.g. "unable to open
// file"), or "" when the stack is empty. Clears the stack.
std::string last_error();

}  // namespace pegsim::h5
