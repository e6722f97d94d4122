#version 450
// A kernel that reads nothing, not even its push constants: what launching a dispatch costs by
// itself, against floor_copy.comp with nothing to copy (which reads its push constants).
#extension GL_GOOGLE_include_directive : require
#include "floor_layout.h"

layout(local_size_x = kGroupSize) in;

void main() {}
