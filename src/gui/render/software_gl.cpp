#include "gui/render/software_gl.hpp"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>

namespace pegsim::gui {

QString opengl_renderer() {
  static const QString renderer = [] {
    QOpenGLContext context;
    QOffscreenSurface surface;
    surface.create();
    if (!context.create() || !context.makeCurrent(&surface)) return QString();
    const auto* name = context.functions()->glGetString(GL_RENDERER);
    QString out = name ? QString::fromLatin1(reinterpret_cast<const char*>(name)) : QString();
    context.doneCurrent();
    return out;
  }();
  return renderer;
}

bool software_opengl() {
  const QString r = opengl_renderer();
  for (const char* name : {"llvmpipe", "softpipe", "swrast", "Software Rasterizer"})
    if (r.contains(name, Qt::CaseInsensitive)) return true;
  return false;
}

}  // namespace pegsim::gui
