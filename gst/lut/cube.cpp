#include "cube.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <vector>

namespace lut {
namespace {

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

// Tokens of one line, without its comment.
std::vector<std::string_view> split(std::string_view line) {
  if (size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
  std::vector<std::string_view> tokens;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\f' || line[i] == '\v')) ++i;
    size_t start = i;
    while (i < line.size() && !(line[i] == ' ' || line[i] == '\t' || line[i] == '\f' || line[i] == '\v')) ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

// Printable form of a token for messages: long or binary tokens are cut and escaped.
std::string shown(std::string_view token) {
  std::string out;
  for (char c : token.substr(0, 32)) {
    if (c >= 0x20 && c < 0x7f) {
      out += c;
    } else {
      char hex[8];
      snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(c));
      out += hex;
    }
  }
  if (token.size() > 32) out += "...";
  return out;
}

enum class NumberStatus { kOk, kNotNumber, kNotFinite };

// Locale-independent: a decimal comma locale must not change how a file reads.
NumberStatus parse_float(std::string_view token, float& value) {
  if (!token.empty() && token[0] == '+') token.remove_prefix(1);
  if (token.empty() || token[0] == '+') return NumberStatus::kNotNumber;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (end != token.data() + token.size()) return NumberStatus::kNotNumber;
  if (ec == std::errc::result_out_of_range) return NumberStatus::kNotFinite;
  if (ec != std::errc()) return NumberStatus::kNotNumber;
  return std::isfinite(value) ? NumberStatus::kOk : NumberStatus::kNotFinite;
}

class CubeParser {
 public:
  CubeParser(const std::string& name, Table& table, std::string& error)
      : name_(name), table_(table), error_(error) {}

  // The whole text at once.
  bool parse(std::string_view text) {
    if (!begin(text.size())) return false;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t end = text.find_first_of("\r\n", pos);
      if (end == std::string_view::npos) end = text.size();
      if (!line(text.substr(pos, end - pos), end - pos)) return false;
      // \r\n, \n and \r all end a line.
      pos = end;
      if (pos < text.size() && text[pos] == '\r') ++pos;
      if (pos < text.size() && text[pos] == '\n') ++pos;
    }
    return finish();
  }

  // Line by line from `file`: never more than one line of text in memory.
  bool read(FILE* file, uint64_t file_bytes) {
    if (!begin(file_bytes)) return false;
    std::string text;
    text.reserve(kMaxCubeLineBytes + 1);
    for (;;) {
      text.clear();
      size_t length = 0;  // of the whole line; only its first kMaxCubeLineBytes + 1 are kept
      int c;
      while ((c = getc_unlocked(file)) != EOF && c != '\n' && c != '\r') {
        if (++length > kMaxCubeLineBytes) break;  // line() refuses it
        text += char(c);
      }
      if (c == EOF && ferror(file)) return fail(format("cannot read %s: %s", name_.c_str(), strerror(errno)));
      if (c == EOF && length == 0) break;
      consumed_ += length + (c == '\n' || c == '\r');
      // \r\n, \n and \r all end a line.
      if (c == '\r') {
        const int next = getc_unlocked(file);
        if (next == '\n')
          ++consumed_;
        else if (next != EOF)
          ungetc(next, file);
      }
      if (!line(text, length)) return false;
      if (c == EOF) break;
    }
    return finish();
  }

 private:
  bool fail(const std::string& message) {
    error_ = message;
    return false;
  }
  bool fail_at(const std::string& message) {
    return fail(format("line %d of %s: ", line_, name_.c_str()) + message);
  }

  bool number(std::string_view token, const char* what, float& value) {
    switch (parse_float(token, value)) {
      case NumberStatus::kOk: return true;
      case NumberStatus::kNotFinite:
        return fail_at(format("%s '%s' is not a finite number", what, shown(token).c_str()));
      case NumberStatus::kNotNumber:
        return fail_at(format("%s '%s' is not a number", what, shown(token).c_str()));
    }
    return false;
  }

  // Before the first line: a file larger than the largest table is not read at all.
  bool begin(uint64_t file_bytes) {
    table_ = Table{};
    file_bytes_ = file_bytes;
    return check_bytes();
  }

  // What the file may hold: for the largest table until its size keyword, then for its table.
  bool check_bytes() {
    const uint64_t bytes = std::max(file_bytes_, consumed_);
    const uint64_t rows = size_line_ ? expected_rows() : uint64_t(kMax3DSize) * kMax3DSize * kMax3DSize;
    const uint64_t limit = max_cube_bytes(rows);
    if (bytes <= limit) return true;
    const std::string holder =
        size_line_ ? format("%s %u at line %d", size_key(), table_.size, size_line_) : "a .cube file";
    return fail(format(
        "%s is %llu bytes, more than %s can hold (at most %llu: %llu rows of at most %llu "
        "bytes and %llu of keywords and comments)",
        name_.c_str(), (unsigned long long)bytes, holder.c_str(), (unsigned long long)limit,
        (unsigned long long)rows, (unsigned long long)kCubeRowBytes, (unsigned long long)kCubeHeaderBytes));
  }

  // One line without its end; `length` is the whole line's, of which `text` may hold only the start.
  bool line(std::string_view text, size_t length) {
    ++line_;
    if (length > kMaxCubeLineBytes) return fail_at(format("longer than %zu bytes", kMaxCubeLineBytes));
    // A file that grew since it was opened stops as soon as it holds more than its table can.
    return parse_line(text) && check_bytes();
  }

  const char* size_key() const {
    return table_.dimensions == Dimensions::k3D ? "LUT_3D_SIZE" : "LUT_1D_SIZE";
  }

  bool parse_line(std::string_view line) {
    std::vector<std::string_view> tokens = split(line);
    if (tokens.empty()) return true;
    float first;
    if (parse_float(tokens[0], first) != NumberStatus::kNotNumber) return row(tokens);
    const std::string_view key = tokens[0];
    if (key == "TITLE") return title(line);
    if (key == "LUT_3D_SIZE") return size(tokens, Dimensions::k3D);
    if (key == "LUT_1D_SIZE") return size(tokens, Dimensions::k1D);
    if (key == "DOMAIN_MIN") return domain(tokens, table_.domain_min, domain_min_line_);
    if (key == "DOMAIN_MAX") return domain(tokens, table_.domain_max, domain_max_line_);
    if (key == "LUT_1D_INPUT_RANGE" || key == "LUT_3D_INPUT_RANGE") return input_range(tokens);
    bool word = true;
    for (char c : key) word = word && ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
    if (word) return fail_at(format("unknown keyword %s", shown(key).c_str()));
    return fail_at(format("'%s' is not a number nor a keyword", shown(key).c_str()));
  }

  bool before_table(std::string_view key) {
    if (rows_ == 0) return true;
    return fail_at(format("%s after the table began at line %d", std::string(key).c_str(), first_row_line_));
  }

  bool title(std::string_view line) {
    if (!before_table("TITLE")) return false;
    if (title_line_) return fail_at(format("second TITLE (the first is at line %d)", title_line_));
    title_line_ = line_;
    std::string_view rest = line.substr(line.find("TITLE") + 5);
    size_t open = rest.find('"');
    if (open != std::string_view::npos) {
      size_t close = rest.find('"', open + 1);
      if (close == std::string_view::npos) return fail_at("TITLE without its closing quote");
      table_.title = std::string(rest.substr(open + 1, close - open - 1));
    } else {
      std::vector<std::string_view> words = split(rest);
      for (size_t i = 0; i < words.size(); ++i) table_.title += (i ? " " : "") + std::string(words[i]);
    }
    return true;
  }

  bool size(const std::vector<std::string_view>& tokens, Dimensions dimensions) {
    const char* key = dimensions == Dimensions::k3D ? "LUT_3D_SIZE" : "LUT_1D_SIZE";
    if (!before_table(key)) return false;
    if (size_line_) {
      return fail_at(
          format("%s after %s at line %d: one table per file (combined 1D and 3D tables are not "
                 "supported)",
                 key, size_key(), size_line_));
    }
    if (tokens.size() != 2) return fail_at(format("%s takes one value, found %zu", key, tokens.size() - 1));
    const uint32_t lo = dimensions == Dimensions::k3D ? kMin3DSize : kMin1DSize;
    const uint32_t hi = dimensions == Dimensions::k3D ? kMax3DSize : kMax1DSize;
    const std::string_view token = tokens[1];
    unsigned long long value = 0;
    auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (end != token.data() + token.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
      return fail_at(format("%s '%s' is not a whole number", key, shown(token).c_str()));
    if (ec == std::errc::result_out_of_range || value < lo || value > hi) {
      return fail(format("%s %s at line %d of %s: must be %u..%u", key, shown(token).c_str(), line_,
                         name_.c_str(), lo, hi));
    }
    table_.dimensions = dimensions;
    table_.size = uint32_t(value);
    size_line_ = line_;
    if (!check_bytes()) return false;
    // The whole table at once when the file is long enough to hold it (rows of at least "0 0 0\n"):
    // a short file with a large size must fail fast without allocating it.
    if (file_bytes_ >= expected_rows() * 6) table_.rgbx.reserve(expected_rows() * kEntryFloats);
    return true;
  }

  bool values(const std::vector<std::string_view>& tokens, size_t count, float* out) {
    if (tokens.size() != count + 1) {
      return fail_at(
          format("%s takes %zu values, found %zu", std::string(tokens[0]).c_str(), count, tokens.size() - 1));
    }
    for (size_t i = 0; i < count; ++i)
      if (!number(tokens[i + 1], std::string(tokens[0]).c_str(), out[i])) return false;
    return true;
  }

  bool domain(const std::vector<std::string_view>& tokens, std::array<float, 3>& value, int& line) {
    if (!before_table(tokens[0])) return false;
    if (line)
      return fail_at(format("second %s (the first is at line %d)", std::string(tokens[0]).c_str(), line));
    line = line_;
    return values(tokens, 3, value.data());
  }

  bool input_range(const std::vector<std::string_view>& tokens) {
    if (!before_table(tokens[0])) return false;
    if (domain_min_line_ || domain_max_line_)
      return fail_at(
          format("%s with DOMAIN_MIN/DOMAIN_MAX or another input range", std::string(tokens[0]).c_str()));
    float range[2];
    if (!values(tokens, 2, range)) return false;
    table_.domain_min = {range[0], range[0], range[0]};
    table_.domain_max = {range[1], range[1], range[1]};
    domain_min_line_ = domain_max_line_ = line_;
    return true;
  }

  size_t expected_rows() const { return table_.entries(); }

  bool check_domain() {
    static const char* const kChannel[3] = {"red", "green", "blue"};
    for (int c = 0; c < 3; ++c) {
      if (table_.domain_min[c] < table_.domain_max[c]) continue;
      const int line = std::max(domain_min_line_, domain_max_line_);
      return fail(format("line %d of %s: DOMAIN_MIN %g is not below DOMAIN_MAX %g for %s", line,
                         name_.c_str(), double(table_.domain_min[c]), double(table_.domain_max[c]),
                         kChannel[c]));
    }
    return true;
  }

  bool row(const std::vector<std::string_view>& tokens) {
    if (rows_ == 0) {
      if (!size_line_) return fail_at("table row before LUT_3D_SIZE or LUT_1D_SIZE");
      if (!check_domain()) return false;
      first_row_line_ = line_;
    }
    if (rows_ == expected_rows()) {
      return fail_at(format("table row %zu, but %s %u has %zu rows", rows_ + 1, size_key(), table_.size,
                            expected_rows()));
    }
    if (tokens.size() != 3) return fail_at(format("%zu values, a table row needs 3", tokens.size()));
    float rgb[3];
    for (int c = 0; c < 3; ++c)
      if (!number(tokens[c], "value", rgb[c])) return false;
    table_.rgbx.insert(table_.rgbx.end(), {rgb[0], rgb[1], rgb[2], 0.f});
    ++rows_;
    return true;
  }

  bool finish() {
    if (!size_line_)
      return fail(
          format("%s has no LUT_3D_SIZE or LUT_1D_SIZE (end of file at line %d)", name_.c_str(), line_));
    if (rows_ < expected_rows()) {
      return fail(format("%s is truncated: %zu of the %zu table rows of %s %u at its end (line %d)",
                         name_.c_str(), rows_, expected_rows(), size_key(), table_.size, line_));
    }
    return true;
  }

  const std::string& name_;
  Table& table_;
  std::string& error_;
  int line_ = 0;
  int size_line_ = 0, title_line_ = 0, domain_min_line_ = 0, domain_max_line_ = 0, first_row_line_ = 0;
  size_t rows_ = 0;
  uint64_t file_bytes_ = 0;  // as opened (or the text's length)
  uint64_t consumed_ = 0;    // read so far, line ends included
};

}  // namespace

bool parse_cube(std::string_view text, const std::string& name, Table& table, std::string& error) {
  Table parsed;
  if (!CubeParser(name, parsed, error).parse(text)) return false;
  table = std::move(parsed);
  return true;
}

bool read_cube(FILE* file, uint64_t file_bytes, const std::string& name, Table& table, std::string& error) {
  Table parsed;
  if (!CubeParser(name, parsed, error).read(file, file_bytes)) return false;
  table = std::move(parsed);
  return true;
}

}  // namespace lut
