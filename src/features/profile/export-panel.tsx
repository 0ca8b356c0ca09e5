import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { IconDownload } from '@tabler/icons-react';
import { TaskProgress } from '../../components/task-progress';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { exportPosts, type BackupProgress } from '../../db/posts/backup';
import { saveFile } from '../../lib/download';
import { formatCount } from '../../lib/format';
import { Panel } from '../../components/panel';

/** A member's own backup: every post they wrote, whatever its status, in a JSON file. */
export function ExportPanel() {
  const [progress, setProgress] = useState<BackupProgress | null>(null);
  const showToast = useToast();

  const run = async () => {
    setProgress({ phase: 'reading', done: 0, total: 0 });
    try {
      const result = await exportPosts('mine', { onProgress: setProgress });
      saveFile(result.blob, result.filename);
      showToast({ title: 'Export ready', description: `${formatCount(result.count)} of your posts saved to ${result.filename}.` });
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setProgress(null);
    }
  };

  return (
    <Panel id="export-title" icon={<IconDownload aria-hidden="true" size={20} />} title="Your posts, in a file" className="app-panel">
      <p className="small text-body-secondary">Download everything you have posted here, with its status, as JSON.</p>
      <Button variant="outline-primary" className="w-100 app-icon-button" onClick={() => void run()} disabled={progress !== null}>
        <IconDownload aria-hidden="true" size={18} /> Export my posts
      </Button>
      {progress && (
        <div className="mt-3">
          <TaskProgress
            label={`Exporting ${formatCount(progress.done)} of ${formatCount(progress.total)} posts…`}
            done={progress.done}
            total={progress.total}
          />
        </div>
      )}
    </Panel>
  );
}
