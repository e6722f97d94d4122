// One seed per test run, so that any failure can be replayed bit for bit.
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace vktest {

// Name of the environment variable that fixes the seed of a run.
inline constexpr const char kSeedEnv[] = "GST_VKCOMPUTE_TEST_SEED";

// The run's seed: kSeedEnv when set, else derived from the clock. Chosen once per process (in
// the parent before check forks, so every test of the run shares it) and printed the first
// time it is chosen.
uint32_t TestSeed();

// A generator for one named piece of a test. Deriving it from the run seed and a stable name
// (rather than drawing from one shared generator) keeps a case's data identical whether the
// case runs alone or after others, which makes a failure reproducible with GST_CHECKS.
std::mt19937 RngFor(const std::string& name);

// "seed=N (rerun with GST_VKCOMPUTE_TEST_SEED=N)", for failure messages.
std::string SeedDescription();

// "<name> [seed=N (rerun with ...)]", for failure messages that do not describe a frame.
std::string WithSeed(const std::string& name);

}  // namespace vktest
