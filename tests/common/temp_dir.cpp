#include "temp_dir.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>

namespace vktest {

TempDir::TempDir() {
  GError* error = nullptr;
  gchar* dir = g_dir_make_tmp("lut-test-XXXXXX", &error);
  fail_unless(dir != nullptr, "cannot make a temporary directory: %s", error ? error->message : "?");
  path_ = dir;
  g_free(dir);
}

TempDir::~TempDir() {
  if (GDir* dir = g_dir_open(path_.c_str(), 0, nullptr)) {
    while (const gchar* name = g_dir_read_name(dir)) g_remove(Path(name).c_str());
    g_dir_close(dir);
  }
  g_rmdir(path_.c_str());
}

std::string TempDir::Write(const std::string& name, const std::string& content) const {
  const std::string path = Path(name);
  GError* error = nullptr;
  fail_unless(g_file_set_contents(path.c_str(), content.data(), gssize(content.size()), &error),
              "cannot write %s: %s", path.c_str(), error ? error->message : "?");
  return path;
}

}  // namespace vktest
