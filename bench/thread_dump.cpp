#include "thread_dump.hpp"

#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>

// Everything below runs in signal handlers but install_thread_dump(): system calls and string
// functions that POSIX lists as async-signal-safe, no stdio, no allocation. backtrace() and
// backtrace_symbols_fd() are not on the list; they are safe enough once the unwinder is loaded
// (install_thread_dump() loads it), but unwinding takes the dynamic loader's lock: a thread that
// the SIGQUIT interrupted inside dlopen() keeps the others from answering, and the dump goes on
// after kAnswerWaitNs for each.

namespace bench {
namespace {

// The signal that asks one thread for its backtrace; 0 until installed.
int dump_signal = 0;
// The thread asked now: its id until it answers, minus its id while it dumps, 0 once it is done.
// A thread answers only when asked (a signal left pending by a thread that blocked it is delivered
// whenever it unblocks it, maybe during a later thread's dump).
std::atomic<pid_t> asked{0};
// A dump is under way: a SIGQUIT that comes meanwhile (sent to the process, any thread takes it) is
// ignored.
std::atomic<bool> dumping{false};

constexpr int kMaxFrames = 64;
// How long the dump waits for one thread's backtrace before it goes on to the next.
constexpr long kAnswerWaitNs = 2'000'000'000;
constexpr long kNapNs = 100'000;
// Threads of the process, as listed when the dump starts (a run of many streams has hundreds).
constexpr size_t kMaxThreads = 8192;
pid_t threads[kMaxThreads];

pid_t own_tid() {
  return pid_t(syscall(SYS_gettid));
}

void put(const char* text, size_t size) {
  while (size > 0) {
    const ssize_t written = write(STDERR_FILENO, text, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    text += written;
    size -= size_t(written);
  }
}

void put(const char* text) {
  put(text, strlen(text));
}

void put_number(uint64_t value) {
  char digits[24];
  size_t at = sizeof digits;
  do {
    digits[--at] = char('0' + value % 10);
    value /= 10;
  } while (value > 0);
  put(digits + at, sizeof digits - at);
}

// `out` = /proc/self/task/TID/LEAF (out holds 64 bytes).
void task_path(char* out, pid_t tid, const char* leaf) {
  char digits[24];
  size_t at = sizeof digits;
  digits[--at] = '\0';
  do {
    digits[--at] = char('0' + tid % 10);
    tid /= 10;
  } while (tid > 0);
  strcpy(out, "/proc/self/task/");
  strcat(out, digits + at);
  strcat(out, "/");
  strcat(out, leaf);
}

// Reads up to size - 1 bytes of `path` into `out`, NUL-terminated; returns the length (0 on error).
size_t read_file(const char* path, char* out, size_t size) {
  out[0] = '\0';
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  size_t length = 0;
  while (length + 1 < size) {
    const ssize_t got = read(fd, out + length, size - 1 - length);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    length += size_t(got);
  }
  close(fd);
  out[length] = '\0';
  return length;
}

// Prints the contents of the task's file `leaf` on one line (comm and syscall end in a newline).
void put_task_file(pid_t tid, const char* leaf) {
  char path[64];
  char text[256];
  task_path(path, tid, leaf);
  size_t length = read_file(path, text, sizeof text);
  while (length > 0 && text[length - 1] == '\n') --length;
  put(text, length);
}

// Whether the thread blocks the dump's signal (its SigBlk mask in /proc/self/task/TID/status).
bool blocks_dump_signal(pid_t tid) {
  char path[64];
  char status[4096];
  task_path(path, tid, "status");
  read_file(path, status, sizeof status);
  const char* line = strstr(status, "\nSigBlk:");
  if (!line) return false;
  uint64_t mask = 0;
  for (const char* c = line + 8; *c != '\n' && *c != '\0'; ++c) {
    if (*c >= '0' && *c <= '9') mask = mask << 4 | uint64_t(*c - '0');
    if (*c >= 'a' && *c <= 'f') mask = mask << 4 | uint64_t(*c - 'a' + 10);
  }
  return mask >> (dump_signal - 1) & 1;
}

void put_backtrace() {
  void* frames[kMaxFrames];
  const int count = backtrace(frames, kMaxFrames);
  backtrace_symbols_fd(frames, count, STDERR_FILENO);
}

void on_dump_signal(int, siginfo_t*, void*) {
  const int saved_errno = errno;
  pid_t me = own_tid();
  if (asked.compare_exchange_strong(me, -me)) {
    put_backtrace();
    pid_t dumping_me = -me;
    asked.compare_exchange_strong(dumping_me, 0);  // unless the dump gave up on this thread
  }
  errno = saved_errno;
}

// The load base of each of our modules: the start of its mapping at file offset 0.
void put_load_bases() {
  const int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char chunk[4096];
  char line[512];  // longer lines are cut (the path is not needed whole)
  size_t length = 0;
  for (;;) {
    const ssize_t got = read(fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    for (ssize_t i = 0; i < got; ++i) {
      if (chunk[i] != '\n') {
        if (length + 1 < sizeof line) line[length++] = chunk[i];
        continue;
      }
      line[length] = '\0';
      length = 0;
      // "START-END PERMS OFFSET DEV INODE PATH"
      const char* dash = strchr(line, '-');
      const char* offset = strchr(line, ' ');
      if (offset) offset = strchr(offset + 1, ' ');
      const char* path = strchr(line, '/');
      if (!dash || !offset || !path || strncmp(offset + 1, "00000000 ", 9) != 0) continue;
      if (!strstr(path, "vkcompute")) continue;
      put("load base 0x");
      put(line, size_t(dash - line));
      put(" ");
      put(path);
      put("\n");
    }
  }
  close(fd);
}

// Lists the threads into `threads`; returns how many.
size_t list_threads() {
  const int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return 0;
  size_t count = 0;
  alignas(8) char entries[4096];
  for (;;) {
    const long got = syscall(SYS_getdents64, fd, entries, sizeof entries);
    if (got <= 0) break;
    for (long at = 0; at < got;) {
      // struct linux_dirent64: inode, offset, record length, type, name
      unsigned short record;
      memcpy(&record, entries + at + 16, sizeof record);
      const char* name = entries + at + 19;
      if (name[0] >= '0' && name[0] <= '9' && count < kMaxThreads) {
        pid_t tid = 0;
        for (const char* c = name; *c >= '0' && *c <= '9'; ++c) tid = tid * 10 + (*c - '0');
        threads[count++] = tid;
      }
      at += record;
    }
  }
  close(fd);
  return count;
}

// Asks `tid` for its backtrace and waits for it, up to kAnswerWaitNs.
void dump_other(pid_t tid) {
  if (blocks_dump_signal(tid)) {
    put("(blocks the dump's signal; in system call: ");
    put_task_file(tid, "syscall");
    put(")\n");
    return;
  }
  asked.store(tid);
  if (syscall(SYS_tgkill, getpid(), tid, dump_signal) != 0) {
    asked.store(0);
    put("(ended)\n");
    return;
  }
  const timespec nap{0, kNapNs};
  for (long waited = 0; asked.load() != 0 && waited < kAnswerWaitNs; waited += kNapNs)
    nanosleep(&nap, nullptr);
  pid_t unanswered = tid;
  if (asked.compare_exchange_strong(unanswered, 0)) {
    put("(did not answer; in system call: ");
    put_task_file(tid, "syscall");
    put(")\n");
  } else if (unanswered != 0) {
    asked.store(0);
    put("(still dumping: its last lines may come later)\n");
  }
}

void dump_all() {
  const pid_t me = own_tid();
  put("==== vkcompute-bench: backtraces of every thread (SIGQUIT) ====\n");
  put_load_bases();
  const size_t count = list_threads();
  for (size_t i = 0; i < count; ++i) {
    const pid_t tid = threads[i];
    put("--- thread ");
    put_number(uint64_t(tid));
    put(" \"");
    put_task_file(tid, "comm");
    put(tid == me ? "\" (took the SIGQUIT)\n" : "\"\n");
    if (tid == me)
      put_backtrace();
    else
      dump_other(tid);
  }
  put("==== end of the backtraces: the run goes on ====\n");
}

void on_quit(int) {
  const int saved_errno = errno;
  bool idle = false;
  if (dumping.compare_exchange_strong(idle, true)) {
    dump_all();
    dumping.store(false);
  }
  errno = saved_errno;
}

}  // namespace

bool install_thread_dump() {
  // backtrace() loads libgcc's unwinder on its first call (dlopen, malloc): not in a handler.
  void* frame[1];
  backtrace(frame, 1);
  // The first real-time signal from SIGRTMIN + 8 that nothing handles: glibc keeps its own below
  // SIGRTMIN, and libraries that take one (timers, profilers) usually take SIGRTMIN itself. GLib
  // and GStreamer use none; SIGUSR1 and SIGUSR2 are an application's own.
  for (int signal = SIGRTMIN + 8; signal <= SIGRTMAX - 8 && dump_signal == 0; ++signal) {
    struct sigaction old {};
    if (sigaction(signal, nullptr, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
      dump_signal = signal;
  }
  if (dump_signal == 0) return false;
  struct sigaction dump {};
  dump.sa_sigaction = on_dump_signal;
  dump.sa_flags = SA_SIGINFO | SA_RESTART;  // an interrupted wait goes on
  sigemptyset(&dump.sa_mask);
  struct sigaction quit {};
  quit.sa_handler = on_quit;
  quit.sa_flags = SA_RESTART;
  sigemptyset(&quit.sa_mask);
  return sigaction(dump_signal, &dump, nullptr) == 0 && sigaction(SIGQUIT, &quit, nullptr) == 0;
}

}  // namespace bench
