// Where the test data files (tests/data: the GPUImage lookup PNGs) are.
#pragma once

#include <glib.h>

#include <string>

#ifndef LUT_TEST_DATA_DIR
#error "LUT_TEST_DATA_DIR must name tests/data (meson's lut_data_dep)"
#endif

namespace vktest {

// tests/data of the source tree, or LUT_TEST_DATA_DIR from the environment (where the tests run
// from a copy, as on the lent GPU).
inline std::string TestDataDir() {
  const char* dir = g_getenv("LUT_TEST_DATA_DIR");
  return dir && *dir ? dir : LUT_TEST_DATA_DIR;
}

}  // namespace vktest
