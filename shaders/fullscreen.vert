// One triangle that covers the viewport, from gl_VertexID alone (no buffers): for passes that
// compute every pixel from textures. The loader prepends #version 450 core.
void main() {
  const vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
