import { useRef, useState, type ChangeEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import { TaskProgress } from '../../components/task-progress';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { isCancelled } from '../../db/storage/errors';
import { exportPosts, importPosts, type BackupProgress } from '../../db/posts/backup';
import { saveFile } from '../../lib/download';
import { formatCount } from '../../lib/format';
import { Panel } from '../../components/panel';

type Task = { kind: 'export' | 'import' | 'send'; progress: BackupProgress; controller: AbortController };

function describe(task: Task): string {
  const { phase, done, total } = task.progress;
  if (task.kind === 'send') return `Sending ${formatCount(done)} of ${formatCount(total)} posts to the server…`;
  if (phase === 'checking') return 'Checking the file…';
  if (phase === 'reading') return `Exporting ${formatCount(done)} of ${formatCount(total)} posts…`;
  return `Importing ${formatCount(done)} of ${formatCount(total)} posts…`;
}

/** Admin backups: export every post to a JSON file, import one (checked first, then merged). */
export function BackupPanel() {
  const [task, setTask] = useState<Task | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [summary, setSummary] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const showToast = useToast();

  const start = (kind: Task['kind']) => {
    const controller = new AbortController();
    const initial: BackupProgress = { phase: kind === 'export' ? 'reading' : 'checking', done: 0, total: 0 };
    setTask({ kind, progress: initial, controller });
    setSummary('');
    return {
      signal: controller.signal,
      onProgress: (progress: BackupProgress) => setTask((current) => (current ? { ...current, progress } : current)),
    };
  };

  const runExport = async () => {
    try {
      const result = await exportPosts('all', start('export'));
      saveFile(result.blob, result.filename);
      showToast({ title: 'Export ready', description: `${formatCount(result.count)} posts saved to ${result.filename}.` });
    } catch (error) {
      if (!isCancelled(error)) showToast(errorToast(error));
    } finally {
      setTask(null);
    }
  };

  const runImport = async () => {
    if (!file) return;
    try {
      const options = start('import');
      const result = await importPosts(file, options);
      let words = `Added ${formatCount(result.added)}, updated ${formatCount(result.updated)}, unchanged ${formatCount(result.unchanged)}.`;
      if (!result.cancelled) {
        // On a connected device the posts then go to the server, in chunks, with the same Cancel.
        const { sendImportToServer } = await import('../../sync/import');
        const sent = await sendImportToServer(file, {
          signal: options.signal,
          onProgress: ({ done, total }) =>
            setTask((current) => (current ? { ...current, kind: 'send', progress: { phase: 'writing', done, total } } : current)),
        });
        if (sent.sent > 0) words += ` Sent ${formatCount(sent.sent)} to the server.`;
        if (sent.cancelled) {
          setSummary(`Sending cancelled. ${words} The rest stay on this device.`);
          showToast({
            title: 'Import cancelled',
            description: `${formatCount(sent.sent)} posts were sent to the server before you cancelled.`,
            variant: 'info',
          });
          return;
        }
      }
      if (result.cancelled) {
        setSummary(`Import cancelled after ${formatCount(result.processed)} posts. ${words}`);
        showToast({
          title: 'Import cancelled',
          description: `${formatCount(result.processed)} posts were imported before you cancelled; nothing else changed.`,
          variant: 'info',
        });
      } else {
        setSummary(`Import complete. ${words}`);
        showToast({ title: 'Import complete', description: words });
        setFile(null);
        if (input.current) input.current.value = '';
      }
    } catch (error) {
      if (!isCancelled(error)) showToast(errorToast(error));
    } finally {
      setTask(null);
    }
  };

  return (
    <Panel id="backup-title" icon={<IconDownload aria-hidden="true" size={20} />} title="Backup" className="app-panel">
      <p className="small text-body-secondary">
        Save every post to a file, or bring posts back from one. Importing adds and updates posts; it never deletes any.
      </p>
      <Button variant="outline-primary" className="w-100 mb-3 app-icon-button" onClick={() => void runExport()} disabled={task !== null}>
        <IconDownload aria-hidden="true" size={18} /> Export all posts
      </Button>
      <Form.Group controlId="backup-file" className="mb-2">
        <Form.Label className="small fw-semibold">Backup file</Form.Label>
        <Form.Control
          ref={input}
          type="file"
          accept="application/json,.json"
          size="sm"
          disabled={task !== null}
          onChange={(event: ChangeEvent<HTMLInputElement>) => setFile(event.target.files?.[0] ?? null)}
        />
      </Form.Group>
      <Button className="w-100 app-icon-button" onClick={() => void runImport()} disabled={!file || task !== null}>
        <IconUpload aria-hidden="true" size={18} /> Import posts
      </Button>
      {task && (
        <div className="mt-3">
          <TaskProgress
            label={describe(task)}
            done={task.progress.done}
            total={task.progress.total}
            onCancel={() => task.controller.abort()}
          />
        </div>
      )}
      {summary && (
        <p className="small mt-3 mb-0" role="status">
          {summary}
        </p>
      )}
    </Panel>
  );
}
