import { useCallback, useEffect, useId, useRef, useState, type ClipboardEvent, type DragEvent } from 'react';
import Button from 'react-bootstrap/Button';
import { IconFile, IconPaperclip, IconX } from '@tabler/icons-react';
import { ACCEPTED_FILES, ATTACHMENT_LIMITS, formatBytes, isImage, MAX_FILE_WORDS, type Attachment } from '../../shared/attachments';
import { keepFile, prepareFile } from '../../db/files/files';
import { useToast } from '../toast/toast-context';
import { errorToast } from '../toast/error-toast';
import { Spinner } from '../spinner';
import { rememberAttached, useAttachmentUrl } from './use-attachment-url';
import './attachments.scss';

/** A file being prepared: its name, and the small picture of an image once it is drawn (`shown` once it has loaded). */
interface Preparing {
  key: number;
  name: string;
  preview?: string;
  shown?: () => void;
}

/** The longest the encode waits for an image's small picture to be shown. */
const PREVIEW_WAIT_MS = 250;

interface AttachFilesOptions {
  email: string;
  files: Attachment[];
  onChange: (files: Attachment[]) => void;
}

/**
 * Attaching files to what is being written: each chosen, pasted or dropped file is prepared (an
 * image resized and re-encoded, every file named by its SHA-256) and kept on this device; a refusal
 * (a type the forum does not take, over 10 MB, past 10 files) is said in a toast and loses nothing else.
 */
export function useAttachFiles({ email, files, onChange }: AttachFilesOptions) {
  const showToast = useToast();
  const [preparing, setPreparing] = useState<Preparing[]>([]);
  const nextKey = useRef(0);
  // The list as it is now, for files that finish preparing one after another.
  const current = useRef(files);
  useEffect(() => {
    current.current = files;
  }, [files]);

  const add = useCallback(
    async (chosen: readonly File[]) => {
      for (const file of chosen) {
        if (current.current.length >= ATTACHMENT_LIMITS.perPost) {
          showToast({
            title: 'Too many attachments',
            description: `A post or reply can carry at most ${ATTACHMENT_LIMITS.perPost} attachments.`,
            variant: 'error',
          });
          return;
        }
        const entry: Preparing = { key: nextKey.current++, name: file.name || 'pasted image' };
        setPreparing((list) => [...list, entry]);
        // An image shows a small picture as soon as it is drawn, while its full size is encoded.
        // The encode that follows holds the page for a while: it starts once the picture is on screen,
        // or after 250 ms (a closed dialog, a hidden tab that draws no frame).
        const showPreview = (blob: Blob) =>
          new Promise<void>((shown) => {
            setTimeout(shown, PREVIEW_WAIT_MS);
            entry.preview = URL.createObjectURL(blob);
            entry.shown = () => requestAnimationFrame(() => setTimeout(shown, 0));
            setPreparing((list) => list.map((item) => (item.key === entry.key ? { ...entry } : item)));
          });
        try {
          const prepared = await prepareFile(file, showPreview);
          await keepFile(email, prepared);
          rememberAttached(prepared.attachment.sha256, prepared.blob);
          if (!current.current.some((kept) => kept.sha256 === prepared.attachment.sha256)) {
            current.current = [...current.current, prepared.attachment];
            onChange(current.current);
          }
        } catch (error) {
          showToast(errorToast(error));
        } finally {
          setPreparing((list) => list.filter((item) => item.key !== entry.key));
          if (entry.preview) URL.revokeObjectURL(entry.preview);
        }
      }
    },
    [email, onChange, showToast],
  );

  const remove = useCallback(
    (sha256: string) => {
      current.current = current.current.filter((file) => file.sha256 !== sha256);
      // Its bytes stay on the device: the draft, a queued reply or another post may name the same file.
      onChange(current.current);
    },
    [onChange],
  );

  /** A paste of files (a screenshot, a copied image) into the text attaches them instead of their name. */
  const onPaste = useCallback(
    (event: ClipboardEvent) => {
      const pasted = [...event.clipboardData.files];
      if (pasted.length === 0) return;
      event.preventDefault();
      void add(pasted);
    },
    [add],
  );
  const onDragOver = useCallback((event: DragEvent) => {
    if (event.dataTransfer.types.includes('Files')) event.preventDefault();
  }, []);
  const onDrop = useCallback(
    (event: DragEvent) => {
      const dropped = [...event.dataTransfer.files];
      if (dropped.length === 0) return;
      event.preventDefault();
      void add(dropped);
    },
    [add],
  );
  return { add, remove, preparing, onPaste, onDragOver, onDrop };
}

function Thumbnail({ file }: { file: Attachment }) {
  const url = useAttachmentUrl(file.sha256, false);
  if (!isImage(file)) return <IconFile size={28} aria-hidden="true" className="app-attach-icon" />;
  return url ? (
    <img src={url} alt="" width={file.width ?? undefined} height={file.height ?? undefined} elementtiming="attachment-thumbnail" />
  ) : (
    <span className="app-attach-icon" />
  );
}

interface AttachmentsEditorProps {
  files: readonly Attachment[];
  attach: ReturnType<typeof useAttachFiles>;
  disabled?: boolean;
  /** The reply box's: the limits go in the button's description only. */
  compact?: boolean;
}

/** "Attach" and what is attached: each file's preview, name and size, and a button to remove it before sending. */
export function AttachmentsEditor({ files, attach, disabled = false, compact = false }: AttachmentsEditorProps) {
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const full = files.length >= ATTACHMENT_LIMITS.perPost;
  return (
    <div className="app-attach">
      <div className="d-flex align-items-center gap-2 flex-wrap">
        <Button
          variant="outline-secondary"
          size="sm"
          onClick={() => input.current?.click()}
          disabled={disabled || full}
          aria-describedby={`${id}-help`}
        >
          <IconPaperclip size={16} aria-hidden="true" className="me-1" />
          Attach
        </Button>
        <span id={`${id}-help`} className={compact ? 'visually-hidden' : 'small text-body-secondary'}>
          Images, PDF, Excel, Word, PowerPoint, CSV or text; up to {ATTACHMENT_LIMITS.perPost} files of {MAX_FILE_WORDS}. Paste or drop
          works too.
        </span>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPTED_FILES}
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Files to attach"
          onChange={(event) => {
            const chosen = [...(event.target.files ?? [])];
            event.target.value = '';
            void attach.add(chosen);
          }}
        />
      </div>
      {(files.length > 0 || attach.preparing.length > 0) && (
        <ul className="app-attach-list" aria-label="Attached files">
          {files.map((file) => (
            <li key={file.sha256} className="app-attach-item">
              <Thumbnail file={file} />
              <span className="app-attach-name">{file.name}</span>
              <span className="app-attach-size">
                {formatBytes(file.size)}
                {file.width && file.height ? ` · ${file.width}×${file.height}` : ''}
              </span>
              <button
                type="button"
                className="btn btn-sm btn-link text-body-secondary app-attach-remove"
                onClick={() => attach.remove(file.sha256)}
                disabled={disabled}
                aria-label={`Remove ${file.name}`}
              >
                <IconX size={16} aria-hidden="true" />
              </button>
            </li>
          ))}
          {attach.preparing.map(({ key, name, preview, shown }) => (
            <li key={`preparing-${key}`} className="app-attach-item is-preparing" role="status">
              {preview ? <img src={preview} alt="" onLoad={shown} onError={shown} elementtiming="attachment-preparing" /> : null}
              <span className="app-attach-name">Preparing {name}…</span>
              <Spinner />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
