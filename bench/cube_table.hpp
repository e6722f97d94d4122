// The .cube file the lut cases read: a smooth random 33^3 table, written once per run.
#pragma once

#include <string>

namespace bench {

// Writes the table to `path`; false (with a message on stderr) when it cannot.
bool write_cube_table(const std::string& path, int size);

}  // namespace bench
