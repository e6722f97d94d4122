#include "ffmpeg_run.h"

#include <glib.h>
#include <gst/check/gstcheck.h>

namespace vktest {

std::vector<uint8_t> RunFfmpeg(const std::string& dir, const std::string& filter, int width, int height,
                               const std::vector<uint8_t>& in, const char* in_pix_fmt,
                               const char* out_pix_fmt, size_t out_bytes) {
  const std::string in_path = dir + "/ffmpeg-in.raw", out_path = dir + "/ffmpeg-out.raw";
  fail_unless(g_file_set_contents(in_path.c_str(), reinterpret_cast<const gchar*>(in.data()),
                                  gssize(in.size()), nullptr));
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  const gchar* argv[] = {
      "ffmpeg",   "-nostdin",     "-hide_banner", "-loglevel", "error",      "-y",        "-f",
      "rawvideo", "-pix_fmt",     in_pix_fmt,     "-s",        size.c_str(), "-i",        in_path.c_str(),
      "-vf",      filter.c_str(), "-f",           "rawvideo",  "-pix_fmt",   out_pix_fmt, out_path.c_str(),
      nullptr};
  gchar* errors = nullptr;
  gint status = 0;
  GError* error = nullptr;
  const gboolean spawned = g_spawn_sync(nullptr, const_cast<gchar**>(argv), nullptr, G_SPAWN_SEARCH_PATH,
                                        nullptr, nullptr, nullptr, &errors, &status, &error);
  fail_unless(spawned, "cannot run ffmpeg (tools/deps.sh installs it): %s", error ? error->message : "?");
  fail_unless(g_spawn_check_wait_status(status, nullptr), "ffmpeg -vf %s failed: %s", filter.c_str(),
              errors ? errors : "");
  g_free(errors);
  gchar* data = nullptr;
  gsize length = 0;
  fail_unless(g_file_get_contents(out_path.c_str(), &data, &length, nullptr), "ffmpeg wrote no %s",
              out_path.c_str());
  std::vector<uint8_t> result(data, data + length);
  g_free(data);
  fail_unless(result.size() == out_bytes, "ffmpeg -vf %s: %zu bytes out, %zu expected", filter.c_str(),
              result.size(), out_bytes);
  return result;
}

}  // namespace vktest
