// Whether OpenGL is a software rasterizer (Mesa llvmpipe, softpipe, swrast), where every
// shaded sample costs CPU: the view then renders without multisampling.
#pragma once

#include <QString>

namespace pegsim::gui {

// GL_RENDERER of a throwaway context ("" when no context can be made); asked once.
QString opengl_renderer();
bool software_opengl();

}  // namespace pegsim::gui
