#include "io/child_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <system_error>

namespace pegsim {
namespace {

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent is gone: nobody to answer
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

std::string read_all(int fd) {
  std::string got;
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return got;
    got.append(buffer, static_cast<std::size_t>(n));
  }
}

[[noreturn]] void child(int answer, const std::function<std::string()>& work, unsigned seconds) {
  for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM}) std::signal(s, SIG_DFL);
  ::alarm(seconds);  // SIGALRM's default action ends the process
  char end = 'a';
  std::string text;
  try {
    text = work();
  } catch (const std::exception& e) {
    end = 't';
    text = e.what();
  } catch (...) {
    end = 't';
    text = "an exception that is not a std::exception";
  }
  write_all(answer, &end, 1);
  write_all(answer, text.data(), text.size());
  // _exit: no atexit handlers or static destructors of the parent's program run twice.
  ::_exit(0);
}

std::string how_it_ended(int status, unsigned seconds) {
  if (WIFSIGNALED(status)) {
    const int s = WTERMSIG(status);
    if (s == SIGALRM) return "did not finish within " + std::to_string(seconds) + " s";
    return "crashed with signal " + std::to_string(s) + " (" + strsignal(s) + ")";
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended without an answer";
}

}  // namespace

ChildOutcome run_in_child(const std::function<std::string()>& work, unsigned seconds) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  std::fflush(nullptr);  // else the child's exit() (libfclib's) would write our buffers again
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::system_error(e, std::generic_category(), "fork");
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(fds[1], work, seconds);
  }
  ::close(fds[1]);
  std::string got = read_all(fds[0]);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!clean || got.empty() || (got[0] != 'a' && got[0] != 't'))
    return {ChildOutcome::End::died, how_it_ended(status, seconds)};
  const ChildOutcome::End end =
      got[0] == 'a' ? ChildOutcome::End::answered : ChildOutcome::End::threw;
  return {end, got.substr(1)};
}

}  // namespace pegsim
