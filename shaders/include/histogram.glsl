// Shared by the histogram counting kernels (histogram.comp, histogram_fast8.comp): the luma of R, G
// and B, and the finish of a frame. Include it after the push constants (Params p) and the
// `counts` and `result` buffers; the layout is histogram_layout.h's.

// The luma of R, G, B at their depth, rounded half up: kr * R + kg * G + kb * B < 2^16 * 2^16 for
// 16-bit samples, and below 256 << kLumaBits for 8-bit ones (the coefficients sum to
// 1 << kLumaBits).
uint luma_of(uint r, uint g, uint b) {
  return (p.kr * r + p.kg * g + p.kb * b + (1u << (kLumaBits - 1u))) >> kLumaBits;
}

shared bool s_last;
const uint kFinishLoads = 8u;

// Counts this workgroup as finished in the region whose histograms start at `base`, of `groups`
// workgroups over every dispatch of the frame; the last one moves the region's histograms into the
// host-visible result buffer and leaves them and the counter zeroed for the slot's next frame. Every
// invocation calls it, after its workgroup's additions to the counts.
void finish_region(uint base, uint groups) {
  // Our additions happen before our count; whoever counts last in the region sees every
  // workgroup's additions.
  memoryBarrierBuffer();
  barrier();
  uint i = gl_LocalInvocationIndex;
  uint finished = base + kChannels * p.histogram_words;
  if (i == 0u) s_last = atomicAdd(counts[finished], 1u) == groups - 1u;
  barrier();
  if (s_last) {
    memoryBarrierBuffer();
    // Every other workgroup is done with the counts: they are read with plain loads, kFinishLoads
    // in flight per invocation (an atomic exchange per bin waited for each in turn), then zeroed.
    const uint step = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
    for (uint k0 = i; k0 < kChannels * p.bins; k0 += kFinishLoads * step) {
      uint n[kFinishLoads];
      [[unroll]] for (uint l = 0u; l < kFinishLoads; ++l) {
        uint k = k0 + l * step;
        n[l] = k < kChannels * p.bins ? counts[base + (k / p.bins) * p.histogram_words + k % p.bins] : 0u;
      }
      [[unroll]] for (uint l = 0u; l < kFinishLoads; ++l) {
        uint k = k0 + l * step;
        if (k < kChannels * p.bins) {
          uint at = base + (k / p.bins) * p.histogram_words + k % p.bins;
          result[at] = n[l];
          counts[at] = 0u;
        }
      }
    }
    if (i == 0u) counts[finished] = 0u;
  }
}
