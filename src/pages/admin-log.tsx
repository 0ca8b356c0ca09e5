import '../features/admin/admin.scss';
import { AdminSubpage } from '../components/admin-subpage';
import { StaffLog } from '../features/admin/staff-log';

/** Admins: every staff action, newest first (kept on the server). */
export function AdminLogPage() {
  return (
    <AdminSubpage
      title="Staff log"
      lead="Every review, hide, deletion, suspension and change of a limit, newest first."
      area="the staff log"
    >
      <StaffLog />
    </AdminSubpage>
  );
}
