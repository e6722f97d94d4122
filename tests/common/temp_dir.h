// A private temporary directory for a test's files, removed with everything in it.
#pragma once

#include <string>

namespace vktest {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // `name` inside the directory.
  std::string Path(const std::string& name) const { return path_ + "/" + name; }
  // Writes `content` to `name` and returns its path.
  std::string Write(const std::string& name, const std::string& content) const;

 private:
  std::string path_;
};

}  // namespace vktest
