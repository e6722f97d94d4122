// GPU work timed by timestamp queries, submission by submission, and its printed line: the
// measurements of bench/kernel_floor.cpp.
#pragma once

#include <functional>

#include "vk/submit.hpp"

namespace bench {

struct Times {
  double median_us = 0, min_us = 0;
};

using Recorder = std::function<void(vkc::Commands)>;

constexpr int kTimedRepeats = 50;

// Records the work with `record` into a submission of its own, kTimedRepeats times, each timed from its
// first command to the end of its last: the median and the least. `before`, when given, is
// recorded ahead of it, untimed, with a barrier between them (as an element follows another in a
// chain's submission).
Times time_submissions(vkc::CommandRing& ring, const Recorder& record, int per_submission = 1,
                       const Recorder& before = nullptr);

// Records setup work with `record` into a submission of its own, followed by a barrier from every
// command to every later one (here or in later submissions), submits it and waits: untimed.
void run_once(vkc::CommandRing& ring, const Recorder& record);

// "  what   median µs (least ...)", and the rate of `bytes` per median when bytes > 0.
void print_line(const char* what, const Times& t, double bytes);

}  // namespace bench
