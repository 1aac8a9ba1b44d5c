import { Icon } from "../components/Icon";

/** Thumbnails of the images about to be sent, each with a remove button. */
export function AttachedImages({ images, onRemove }: { images: readonly string[]; onRemove: (index: number) => void }) {
  if (images.length === 0) return null;
  return (
    <div className="attached-images">
      {images.map((src, i) => (
        <div key={i} className="attached-image">
          <img className="thumbnail" src={src} alt={`Image ${i + 1} to send`} />
          <button type="button" className="icon-button remove-image" aria-label={`Remove image ${i + 1}`} onClick={() => onRemove(i)}>
            <Icon name="close" />
          </button>
        </div>
      ))}
    </div>
  );
}
