// Images for integration tests. Built through hammer-box's own image builder (content-addressed,
// so a second call and a second test file reuse the same image).

/** The python toolchain image tag, built if missing. */
export async function toolchainImage(name = 'python'): Promise<string> {
  // Replaced by the image builder (src/images); until then the imported base image.
  void name;
  return 'hammer-box/base:bookworm';
}
