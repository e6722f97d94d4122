// NVIDIA's NPP doing the work of a --resident row on the same frames, in CUDA memory on the same GPU,
// timed the same way (CUDA events around the frames of one stream, back to back). The libraries
// (NPP 11 and its CUDA runtime: Debian 12's non-free libnppc11, libnppist11, libnppim11,
// libnppicc11, libcudart11.0) are loaded at run time, as the plugin loads libcuda, so nothing of
// CUDA is needed to build; bench/bundle.sh --npp carries them to the lent GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace bench {

// The NPP counterpart of a row's work (8-bit frames; NPP has no 10-bit conversion or 3D table).
enum class NppWork {
  kNone,
  kLumaMinMax,   // RGBA: nppiRGBToGray then nppiMinMaxIndx (lumamax)
  kPlaneMinMax,  // NV12: nppiMinMaxIndx on the luma plane (lumamax)
  // RGBA: the five histograms of ours (histogram), 256 bins each: nppiHistogramEven on R, G, B and
  // alpha, and on the luma of nppiRGBToGray
  kHistogram,
  kRgbToI420,    // RGB: nppiRGBToYUV420 (rgb2yuv RGB->I420)
  kDilate,       // RGBA: nppiDilateBorder with a rectangle of ones, edges replicated (morph dilate)
  kLutTrilinear  // RGBA: nppiLUT_Trilinear with a 33^3 table (lut interpolation=trilinear)
};

class NppPeer {
 public:
  // Null, with `why`, when the libraries or a CUDA device are missing.
  static std::unique_ptr<NppPeer> load(std::string& why);
  ~NppPeer();

  // GPU time per frame in µs of `work` over `count` frames of `width` x `height` (`frames`, each
  // `frame_bytes` long, laid out as the row's format with rows `stride` bytes apart), recorded back
  // to back: the median of `repeats` passes divided by `count`. `kernel` is the dilation's side.
  // Negative, with `why`, when a call fails.
  double time(NppWork work, int kernel, int width, int height, int stride, const uint8_t* frames,
              size_t frame_bytes, int count, int repeats, std::string& why);

  // Whether the last time() timed one CUDA graph of its frames' calls (else the calls as made,
  // the gaps between them included).
  bool last_captured() const { return last_captured_; }

  struct Api;

 private:
  explicit NppPeer(std::unique_ptr<Api> api);
  std::unique_ptr<Api> api_;
  bool last_captured_ = false;
};

}  // namespace bench
