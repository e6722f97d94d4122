// Registration entry points of the plugin's elements.
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS
GST_ELEMENT_REGISTER_DECLARE(rgb2yuv);
GST_ELEMENT_REGISTER_DECLARE(lumamax);
GST_ELEMENT_REGISTER_DECLARE(histogram);
GST_ELEMENT_REGISTER_DECLARE(lut);
GST_ELEMENT_REGISTER_DECLARE(morph);
G_END_DECLS
