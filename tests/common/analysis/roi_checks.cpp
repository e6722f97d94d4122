#include "roi_checks.h"

namespace analysis_test {

void ExpectSettingsError(const std::vector<PostedError>& errors, const std::string& source,
                         const char* element_name, const std::string& where) {
  fail_unless(!errors.empty(), "%s: no ERROR message for an empty ROI", where.c_str());
  const PostedError& error = errors.front();
  fail_unless(error.domain == GST_LIBRARY_ERROR && error.code == GST_LIBRARY_ERROR_SETTINGS,
              "%s: expected a GST_LIBRARY_ERROR_SETTINGS error, got %s", where.c_str(),
              error.description.c_str());
  fail_unless(error.source == source, "%s: the error comes from %s, not from %s (%s)", where.c_str(),
              error.source.c_str(), element_name, source.c_str());
}

}  // namespace analysis_test
