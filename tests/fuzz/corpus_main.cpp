// main() for a fuzz target built with the normal compiler by the test suite: runs
// LLVMFuzzerTestOneInput on every file of the directories given, so that the targets keep
// building and their seeds keep passing (a crash or abort() fails the test).
#include <dirent.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  int inputs = 0;
  for (int a = 1; a < argc; ++a) {
    DIR* dir = opendir(argv[a]);
    if (!dir) {
      fprintf(stderr, "cannot open the corpus %s\n", argv[a]);
      return 1;
    }
    while (const dirent* entry = readdir(dir)) {
      if (entry->d_name[0] == '.') continue;
      std::ifstream file(std::string(argv[a]) + "/" + entry->d_name, std::ios::binary);
      const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      ++inputs;
    }
    closedir(dir);
  }
  printf("%d inputs\n", inputs);
  return inputs > 0 ? 0 : 1;
}
