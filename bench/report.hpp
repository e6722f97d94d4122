// What vkcompute-bench prints and writes: a table per case with our element's speed-up over each
// peer, and the same rows as JSON lines and CSV for bench/plot.py.
#pragma once

#include <string>
#include <vector>

#include "cases.hpp"
#include "copy_bandwidth.hpp"
#include "measurement.hpp"

namespace bench {

struct Row {
  const Case* c;
  const Variant* v;
  Measurement m;
};

class Report {
 public:
  explicit Report(CopyBandwidth bandwidth) : bandwidth_(std::move(bandwidth)) {}

  // Prints the case's rows (ours first) with ratios, and keeps them for the files.
  void add_case(const std::vector<Row>& rows);
  void print_header() const;
  bool write_json(const std::string& path) const;
  bool write_csv(const std::string& path) const;

 private:
  // GPU time the case's bytes would take at the measured copy bandwidth, in microseconds.
  double copy_floor_us(const Case& c) const;

  CopyBandwidth bandwidth_;
  std::vector<Row> rows_;
};

}  // namespace bench
