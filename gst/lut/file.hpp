// Opening a lookup table file: only regular files are read, through the descriptor that was
// checked, so that a device, a FIFO or a directory (or a symlink to one) is refused at once
// instead of blocking or being read without end.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

namespace lut {

class TableFile {
 public:
  // Opens `path` without blocking (a FIFO's open would wait for a writer) and checks what the
  // descriptor refers to. On failure returns false with `error` naming the path: "cannot open
  // x.cube: No such file or directory", "x.cube is not a regular file (a FIFO)".
  bool open(const std::string& path, std::string& error);

  FILE* stream() const { return file_.get(); }
  // The size fstat() gave when the file was opened.
  uint64_t size() const { return size_; }

 private:
  std::unique_ptr<FILE, int (*)(FILE*)> file_{nullptr, fclose};
  uint64_t size_ = 0;
};

}  // namespace lut
