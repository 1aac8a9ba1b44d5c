/** Thumbnails of images attached to a message. */
export function ImageStrip({ images }: { images: readonly string[] | undefined }) {
  if (!images || images.length === 0) return null;
  return (
    <div className="image-strip">
      {images.map((src, i) => (
        <img key={i} className="thumbnail" src={src} alt={`Attached image ${i + 1}`} />
      ))}
    </div>
  );
}
