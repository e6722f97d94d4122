#include "test_seed.h"

#include <glib.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace vktest {

uint32_t TestSeed() {
  static const uint32_t seed = [] {
    uint32_t chosen;
    const char* env = g_getenv(kSeedEnv);
    if (env != nullptr && env[0] != '\0') {
      chosen = static_cast<uint32_t>(std::strtoul(env, nullptr, 0));
    } else {
      chosen =
          static_cast<uint32_t>(std::chrono::system_clock::now().time_since_epoch().count() & 0xffffffffu);
    }
    std::printf("Random data seed: %u (set %s to reproduce)\n", chosen, kSeedEnv);
    std::fflush(stdout);
    return chosen;
  }();
  return seed;
}

std::mt19937 RngFor(const std::string& name) {
  // FNV-1a: stable across runs and platforms, unlike std::hash.
  uint32_t hash = 2166136261u;
  for (unsigned char c : name) hash = (hash ^ c) * 16777619u;
  std::seed_seq sequence{TestSeed(), hash};
  return std::mt19937(sequence);
}

std::string SeedDescription() {
  return "seed=" + std::to_string(TestSeed()) + " (rerun with " + kSeedEnv + "=" +
         std::to_string(TestSeed()) + ")";
}

std::string WithSeed(const std::string& name) {
  return name + " [" + SeedDescription() + "]";
}

}  // namespace vktest
