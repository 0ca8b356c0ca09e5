import { IconFile } from '@tabler/icons-react';
import { formatBytes, isImage, type Attachment } from '../../shared/attachments';
import { useMode } from '../../hooks/use-mode';
import { useAttachmentUrl } from './use-attachment-url';
import './attachments.scss';

/** One image at its own proportions (width and height known: nothing moves as it loads), lazily; a click opens it whole. */
function AttachedImage({ file, connected }: { file: Attachment; connected: boolean }) {
  const url = useAttachmentUrl(file.sha256, connected);
  const alt = file.name.replace(/\.[a-z0-9]+$/iu, '');
  return (
    <figure className="app-attachment-image">
      {url ? (
        <a href={url} target="_blank" rel="noopener" aria-label={`Open image ${file.name}`}>
          <img src={url} alt={alt} width={file.width ?? undefined} height={file.height ?? undefined} loading="lazy" decoding="async" />
        </a>
      ) : (
        <div className="app-attachment-missing" style={{ aspectRatio: `${file.width ?? 4} / ${file.height ?? 3}` }}>
          {url === null ? 'This image is on the device it was attached on.' : null}
        </div>
      )}
    </figure>
  );
}

/** A file other than an image: a link with its name and size (a download: the server says so too). */
function AttachedFile({ file, connected }: { file: Attachment; connected: boolean }) {
  const url = useAttachmentUrl(file.sha256, connected);
  const label = (
    <>
      <IconFile size={18} aria-hidden="true" className="flex-shrink-0" />
      <span className="app-attachment-name">{file.name}</span>
      <span className="app-attachment-size">{formatBytes(file.size)}</span>
    </>
  );
  return url ? (
    <a className="app-attachment-file" href={url} download={file.name}>
      {label}
    </a>
  ) : (
    <span className="app-attachment-file is-missing">{label}</span>
  );
}

/** A post's attachments: its images shown, its other files as links with name and size. */
export function AttachmentList({ files }: { files: readonly Attachment[] }) {
  const connected = useMode() === 'connected';
  const images = files.filter(isImage);
  const others = files.filter((file) => !isImage(file));
  return (
    <section className="app-attachments" aria-label="Attachments">
      {images.length > 0 && (
        <div className="app-attachment-images">
          {images.map((file) => (
            <AttachedImage key={file.sha256} file={file} connected={connected} />
          ))}
        </div>
      )}
      {others.length > 0 && (
        <ul className="app-attachment-files">
          {others.map((file) => (
            <li key={file.sha256}>
              <AttachedFile file={file} connected={connected} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
