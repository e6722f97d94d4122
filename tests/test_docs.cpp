// The element pages of docs/ list exactly the properties the elements have (what gst-inspect-1.0
// shows), so that the reference cannot drift from the code. meson passes the docs directory of the
// source tree in VKCOMPUTE_DOCS_DIR; the elements come from the built plugin.
//
// The rule a page follows:
//   - Every element of the plugin has a page docs/elements/<element>.md, and every page there is
//     an element's.
//   - The page's property table is the first Markdown table (lines starting with "|") after the
//     line "## Properties", before the next "## " heading. Its first line is the header and its
//     second the |---| separator; every further line is a row.
//   - The first cell of a row names one property or more, each in backticks: "`bins`", or
//     "`device`, `device-name`" for a row that describes several together. Backticked words in the
//     other cells are not names. Every row names at least one.
//   - The names in the table are exactly g_object_class_list_properties() of the element class:
//     its own, those of the base classes (`device`, `device-name`, `gpu-time`; the analysis
//     elements' `post-messages`, `matrix`, `roi-*`) and GStreamer's (`name`, `parent`, `qos`).
// A failure lists each page with the properties its table lacks and the names it has in excess.
//
// docs/benchmarks.md holds the current figures only (dated notes go under docs/benchmarks/): at
// most kBenchmarksPageLines lines, and every section with a table names the date it was measured.
#include <gst/check/gstcheck.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>
#include <set>
#include <string>
#include <vector>

namespace {

constexpr char kDocsDirEnv[] = "VKCOMPUTE_DOCS_DIR";
constexpr char kPluginName[] = "vkcompute";
constexpr size_t kBenchmarksPageLines = 400;

std::string DocsDir() {
  const char* dir = g_getenv(kDocsDirEnv);
  fail_unless(dir != nullptr && *dir != '\0', "%s is not set (meson test sets it to the source tree's docs/)",
              kDocsDirEnv);
  return dir;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

// The names the property table of the page at `path` gives, by the rule above; problems with the
// table itself are added to `problems`.
std::set<std::string> DocumentedProperties(const std::string& path, std::vector<std::string>& problems) {
  gchar* contents = nullptr;
  GError* error = nullptr;
  fail_unless(g_file_get_contents(path.c_str(), &contents, nullptr, &error), "cannot read %s: %s",
              path.c_str(), error != nullptr ? error->message : "");
  const std::vector<std::string> lines = Lines(contents);
  g_free(contents);

  std::set<std::string> names;
  auto heading = std::find(lines.begin(), lines.end(), "## Properties");
  if (heading == lines.end()) {
    problems.push_back(path + ": no \"## Properties\" heading");
    return names;
  }
  auto line = heading + 1;
  while (line != lines.end() && line->rfind("|", 0) != 0 && line->rfind("## ", 0) != 0) ++line;
  if (line == lines.end() || line->rfind("|", 0) != 0) {
    problems.push_back(path + ": no table under \"## Properties\"");
    return names;
  }
  const auto header = line;
  for (line = header + 1; line != lines.end() && line->rfind("|", 0) == 0; ++line) {
    if (line == header + 1) {  // the separator
      if (line->find_first_not_of("|-: ") != std::string::npos)
        problems.push_back(path + ": the property table's second line is not its |---| separator: " + *line);
      continue;
    }
    const std::string first_cell = line->substr(1, line->find('|', 1) - 1);
    size_t count = 0;
    for (size_t open = first_cell.find('`'); open != std::string::npos; open = first_cell.find('`', open)) {
      const size_t close = first_cell.find('`', open + 1);
      if (close == std::string::npos) break;
      names.insert(first_cell.substr(open + 1, close - open - 1));
      ++count;
      open = close + 1;
    }
    if (count == 0) problems.push_back(path + ": a row of the property table names no property: " + *line);
  }
  return names;
}

// The properties of the elements `factory` makes, as gst-inspect-1.0 lists them.
std::set<std::string> RealProperties(GstElementFactory* factory) {
  GstPluginFeature* loaded = gst_plugin_feature_load(GST_PLUGIN_FEATURE(factory));
  fail_unless(loaded != nullptr, "cannot load %s", GST_OBJECT_NAME(factory));
  const GType type = gst_element_factory_get_element_type(GST_ELEMENT_FACTORY(loaded));
  auto* klass = static_cast<GObjectClass*>(g_type_class_ref(type));
  guint n = 0;
  GParamSpec** specs = g_object_class_list_properties(klass, &n);
  std::set<std::string> names;
  for (guint i = 0; i < n; ++i) names.insert(g_param_spec_get_name(specs[i]));
  g_free(specs);
  g_type_class_unref(klass);
  gst_object_unref(loaded);
  return names;
}

std::string Join(const std::set<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "`" : ", `") + name + "`";
  return text;
}

std::set<std::string> Minus(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::set<std::string> rest;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(rest, rest.end()));
  return rest;
}

// The element factories of the plugin (caller unrefs each).
std::vector<GstElementFactory*> PluginElements() {
  GList* features = gst_registry_get_feature_list_by_plugin(gst_registry_get(), kPluginName);
  std::vector<GstElementFactory*> factories;
  for (GList* item = features; item != nullptr; item = item->next)
    if (GST_IS_ELEMENT_FACTORY(item->data))
      factories.push_back(GST_ELEMENT_FACTORY(gst_object_ref(GST_OBJECT(item->data))));
  gst_plugin_feature_list_free(features);
  fail_unless(!factories.empty(),
              "the plugin %s registers no element (is GST_PLUGIN_PATH its build directory?)", kPluginName);
  return factories;
}

GST_START_TEST(test_property_tables_match_the_elements) {
  const std::string elements_dir = DocsDir() + "/elements";
  std::vector<std::string> problems;
  std::set<std::string> pages;
  GDir* dir = g_dir_open(elements_dir.c_str(), 0, nullptr);
  fail_unless(dir != nullptr, "cannot list %s", elements_dir.c_str());
  while (const gchar* name = g_dir_read_name(dir))
    if (g_str_has_suffix(name, ".md")) pages.insert(std::string(name, strlen(name) - 3));
  g_dir_close(dir);

  for (GstElementFactory* factory : PluginElements()) {
    const std::string element = GST_OBJECT_NAME(factory);
    const std::string path = elements_dir + "/" + element + ".md";
    if (pages.erase(element) == 0) {
      problems.push_back("the element " + element + " has no page " + path);
    } else {
      const std::set<std::string> real = RealProperties(factory);
      const std::set<std::string> documented = DocumentedProperties(path, problems);
      const std::set<std::string> missing = Minus(real, documented), extra = Minus(documented, real);
      if (!missing.empty())
        problems.push_back(path + ": the property table lacks " + Join(missing) + " (properties of " +
                           element + ")");
      if (!extra.empty())
        problems.push_back(path + ": the property table names " + Join(extra) + ", which " + element +
                           " does not have");
    }
    gst_object_unref(factory);
  }
  for (const std::string& page : pages)
    problems.push_back(elements_dir + "/" + page + ".md: no element " + page + " in the plugin " +
                       kPluginName);

  std::string report;
  for (const std::string& problem : problems) report += "\n  " + problem;
  fail_unless(problems.empty(), "the element pages disagree with the elements (rule: tests/test_docs.cpp):%s",
              report.c_str());
}
GST_END_TEST;

// Whether `line` holds a date written YYYY-MM-DD.
bool HasDate(const std::string& line) {
  for (size_t i = 0; i + 10 <= line.size(); ++i) {
    const char* c = line.c_str() + i;
    if (std::isdigit(c[0]) && std::isdigit(c[1]) && std::isdigit(c[2]) && std::isdigit(c[3]) && c[4] == '-' &&
        std::isdigit(c[5]) && std::isdigit(c[6]) && c[7] == '-' && std::isdigit(c[8]) && std::isdigit(c[9]))
      return true;
  }
  return false;
}

GST_START_TEST(test_benchmarks_page_holds_current_figures) {
  const std::string path = DocsDir() + "/benchmarks.md";
  gchar* contents = nullptr;
  GError* error = nullptr;
  fail_unless(g_file_get_contents(path.c_str(), &contents, nullptr, &error), "cannot read %s: %s",
              path.c_str(), error != nullptr ? error->message : "");
  std::vector<std::string> lines = Lines(contents);
  g_free(contents);
  if (!lines.empty() && lines.back().empty()) lines.pop_back();  // the final newline
  fail_unless(lines.size() <= kBenchmarksPageLines,
              "%s has %zu lines, more than %zu: it holds the current figures, one table per subject; "
              "dated notes and raw printouts go under docs/benchmarks/",
              path.c_str(), lines.size(), kBenchmarksPageLines);

  std::vector<std::string> undated;
  std::string section;
  bool table = false, dated = false;
  auto close_section = [&] {
    if (table && !dated) undated.push_back(section);
  };
  for (const std::string& line : lines) {
    if (line.rfind("## ", 0) == 0) {
      close_section();
      section = line;
      table = dated = false;
    }
    table = table || line.rfind("|---", 0) == 0;
    dated = dated || HasDate(line);
  }
  close_section();
  std::string report;
  for (const std::string& name : undated) report += "\n  " + name;
  fail_unless(undated.empty(), "%s: sections with a table but no date (YYYY-MM-DD) of their measurement:%s",
              path.c_str(), report.c_str());
}
GST_END_TEST;

Suite* docs_suite() {
  Suite* suite = suite_create("docs");
  TCase* tcase = tcase_create("docs");
  tcase_set_timeout(tcase, 60);
  suite_add_tcase(suite, tcase);
  tcase_add_test(tcase, test_property_tables_match_the_elements);
  tcase_add_test(tcase, test_benchmarks_page_holds_current_figures);
  return suite;
}

}  // namespace

GST_CHECK_MAIN(docs);
