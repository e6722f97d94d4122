#include "file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace lut {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a file";
}

}  // namespace

bool TableFile::open(const std::string& path, std::string& error) {
  // O_NONBLOCK: opening a FIFO for reading must not wait for a writer. It has no effect on the
  // reads of a regular file, the only kind read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open " + path + ": " + strerror(errno);
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    error = "cannot open " + path + ": " + strerror(errno);
    ::close(fd);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    error = path + " is not a regular file (" + kind_of(st.st_mode) + ")";
    ::close(fd);
    return false;
  }
  FILE* file = fdopen(fd, "rb");
  if (!file) {
    error = "cannot open " + path + ": " + strerror(errno);
    ::close(fd);
    return false;
  }
  file_.reset(file);
  size_ = uint64_t(st.st_size);
  return true;
}

}  // namespace lut
