// Model files' textures drawn: an image decoded by Qt into a Qt3D texture, painted by a lit
// material over a part's (u, v) coordinates.
#pragma once

#include <QImage>
#include <Qt3DCore/QNode>
#include <Qt3DRender/QMaterial>

#include "engine/core/visual_mesh.hpp"

namespace pegsim::gui {

// The texture's image as Qt reads it (PNG, JPEG, BMP, PPM, ...); null where it cannot.
QImage decode_texture(const VisualTexture& texture);

// A lit (diffuse + specular) material painting `image`, its rows turned bottom-up as OpenGL's
// texture coordinates count them; repeated beyond [0, 1] and mipmapped.
Qt3DRender::QMaterial* make_texture_material(const QImage& image, Qt3DCore::QNode* parent);

}  // namespace pegsim::gui
