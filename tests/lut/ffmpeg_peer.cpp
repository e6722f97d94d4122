#include "ffmpeg_peer.h"

#include <glib.h>
#include <gst/check/gstcheck.h>

namespace lut_test {

std::vector<uint8_t> RunFfmpeg(const std::string& dir, const std::string& filter, int width, int height,
                               const std::vector<uint8_t>& pixels, const char* pix_fmt) {
  const std::string in = dir + "/ffmpeg-in.raw", out = dir + "/ffmpeg-out.raw";
  fail_unless(g_file_set_contents(in.c_str(), reinterpret_cast<const gchar*>(pixels.data()),
                                  gssize(pixels.size()), nullptr));
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  const gchar* argv[] = {"ffmpeg",   "-nostdin", "-hide_banner", "-loglevel",    "error", "-y",
                         "-f",       "rawvideo", "-pix_fmt",     pix_fmt,        "-s",    size.c_str(),
                         "-i",       in.c_str(), "-vf",          filter.c_str(), "-f",    "rawvideo",
                         "-pix_fmt", pix_fmt,    out.c_str(),    nullptr};
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
  fail_unless(g_file_get_contents(out.c_str(), &data, &length, nullptr), "ffmpeg wrote no %s", out.c_str());
  std::vector<uint8_t> result(data, data + length);
  g_free(data);
  fail_unless(result.size() == pixels.size(), "ffmpeg -vf %s: %zu bytes out for %zu in", filter.c_str(),
              result.size(), pixels.size());
  return result;
}

std::string Lut3dFilter(const std::string& cube_path, const std::string& interp) {
  return "lut3d=file=" + cube_path + ":interp=" + interp;
}

std::string Lut1dFilter(const std::string& cube_path, const std::string& interp) {
  return "lut1d=file=" + cube_path + ":interp=" + interp;
}

std::string HaldFilter(const std::string& png_path, const std::string& interp) {
  return "movie=" + png_path + "[clut];[in][clut]haldclut=interp=" + interp;
}

}  // namespace lut_test
