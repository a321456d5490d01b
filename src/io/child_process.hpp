// Work that may end the process on damaged input (HDF5 1.10 reads through null pointers on some
// damaged files; libfclib calls exit() when a read fails), done in a forked child so that the
// caller survives and refuses the input instead.
#pragma once

#include <functional>
#include <string>

namespace pegsim {

struct ChildOutcome {
  enum class End { answered, threw, died };
  End end = End::died;
  // What `work` returned (answered), its exception's message (threw), or how the child ended
  // (died): "crashed with signal 11 (Segmentation fault)", "exited with status 1", "did not
  // finish within 5 s".
  std::string text;
};

// Runs `work` in a child process (fork) and waits for it, at most `seconds` (then the child is
// ended: a damaged file can also make a library loop). The child restores the default action
// of the fatal signals first, so that a crash ends it at once rather than running a
// sanitizer's or fuzzer's report in the caller's name. Only for single-threaded callers: the
// child of a threaded process may find a lock held by a thread it does not have.
ChildOutcome run_in_child(const std::function<std::string()>& work, unsigned seconds);

}  // namespace pegsim
