import { useId, useState, type FormEvent } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { IconArrowDown, IconArrowUp, IconCategory } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { PageLoading } from '../../components/page-loading';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { trapTabKey } from '../../components/focus-trap';
import {
  archiveCategory,
  createCategory,
  editCategory,
  listCategories,
  listGroups,
  moveCategory,
  type CategoryAudience,
} from '../../db/groups/groups';
import type { GroupRow } from '../../db/storage/schema';
import { useMode } from '../../hooks/use-mode';
import { DISPLAY_CHARS, clip } from '../../lib/format';
import { CATEGORY_LIMITS, validateCategoryDescription, validateCategoryName, type Category } from '../../shared/categories';

/** "Who can see" or "Who can post": everyone, or only the members of the groups checked. */
function AudienceField({
  legend,
  everyone,
  value,
  groups,
  onChange,
}: {
  legend: string;
  everyone: string;
  value: CategoryAudience;
  groups: readonly GroupRow[];
  onChange: (value: CategoryAudience) => void;
}) {
  const id = useId();
  const chosen = value ?? [];
  return (
    <fieldset className="mb-3">
      <legend className="form-label fs-6 mb-1">{legend}</legend>
      <Form.Check
        type="radio"
        id={`${id}-all`}
        name={`${id}-who`}
        label={everyone}
        checked={value === null}
        onChange={() => onChange(null)}
      />
      <Form.Check
        type="radio"
        id={`${id}-some`}
        name={`${id}-who`}
        label="Only these groups"
        checked={value !== null}
        disabled={groups.length === 0}
        onChange={() => onChange([])}
      />
      {groups.length === 0 && <Form.Text>Create a group first (the Groups tab).</Form.Text>}
      {value !== null && (
        <div className="ms-4" role="group" aria-label={`${legend}: groups`}>
          {groups.map((group) => (
            <Form.Check
              key={group.id}
              type="checkbox"
              id={`${id}-${group.id}`}
              label={group.name}
              checked={chosen.includes(group.id)}
              onChange={(event) => onChange(event.target.checked ? [...chosen, group.id] : chosen.filter((one) => one !== group.id))}
            />
          ))}
        </div>
      )}
    </fieldset>
  );
}

/** New category and Edit: "Name", "Description", "Who can see", "Who can post" (checked here by the rules the server applies). */
function CategoryDialog({
  category,
  groups,
  position,
  show,
  onHide,
}: {
  category?: Category;
  groups: readonly GroupRow[];
  position: number;
  show: boolean;
  onHide: () => void;
}) {
  const id = useId();
  const showToast = useToast();
  const [name, setName] = useState(category?.name ?? '');
  const [description, setDescription] = useState(category?.description ?? '');
  const [see, setSee] = useState<CategoryAudience>(category?.see ?? null);
  const [post, setPost] = useState<CategoryAudience>(category?.post ?? null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem =
      validateCategoryName(name) ??
      validateCategoryDescription(description) ??
      (see?.length === 0 || post?.length === 0
        ? { title: 'Choose a group', message: 'Check at least one group, or choose Everyone.' }
        : null);
    if (problem) {
      showToast({ title: problem.title, description: problem.message, variant: 'error' });
      return;
    }
    setBusy(true);
    try {
      const fields = { name, description, see, post };
      if (category) await editCategory(category.id, fields);
      else await createCategory(fields, position);
      showToast({
        title: category ? 'Category saved' : 'Category created',
        description: 'Every device shows it once the server has it.',
        variant: 'success',
      });
      onHide();
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal show={show} onHide={onHide} centered aria-labelledby={`${id}-title`} onKeyDown={trapTabKey}>
      <Form onSubmit={(event) => void submit(event)} noValidate>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            {category ? 'Edit category' : 'New category'}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group className="mb-3" controlId={`${id}-name`}>
            <Form.Label>Name</Form.Label>
            <Form.Control value={name} onChange={(event) => setName(event.target.value)} maxLength={CATEGORY_LIMITS.name} required />
          </Form.Group>
          <Form.Group className="mb-3" controlId={`${id}-description`}>
            <Form.Label>Description</Form.Label>
            <Form.Control
              as="textarea"
              rows={2}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              maxLength={CATEGORY_LIMITS.description}
            />
          </Form.Group>
          <AudienceField legend="Who can see" everyone="Everyone" value={see} groups={groups} onChange={setSee} />
          <AudienceField legend="Who can post" everyone="Everyone who can see it" value={post} groups={groups} onChange={setPost} />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {category ? 'Save' : 'Create category'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

/** Who a category reaches, in words ("Everyone", or the groups' names). */
function audience(ids: CategoryAudience, groups: readonly GroupRow[], everyone: string): string {
  if (ids === null) return everyone;
  return ids.map((id) => groups.find((group) => group.id === id)?.name ?? 'a removed group').join(', ');
}

/**
 * The Categories tab (connected mode; issue 61): the spec's six and the admins' own, in their order,
 * each with who sees and posts in it, Edit, Archive (or Bring back) and Move up / Move down; New
 * category. What is shown is this device's copy of the server's (a change shows once it has synced).
 */
export function CategoriesPanel() {
  const mode = useMode();
  const showToast = useToast();
  const categories = useLiveQuery(() => listCategories(), []);
  const groups = useLiveQuery(() => listGroups(), []);
  const [editing, setEditing] = useState<Category | 'new' | null>(null);
  // Both read: a private category's groups are named, never "a removed group" for a moment.
  if (mode === undefined || categories === undefined || groups === undefined) return <PageLoading label="Loading categories..." />;
  if (mode === 'local') {
    return (
      <EmptyState icon={<IconCategory size={40} />} title="Groups and categories need the server">
        This device is local-only: its forum keeps the six categories everyone sees.
      </EmptyState>
    );
  }
  const act = (work: Promise<void>) => work.catch((error: unknown) => showToast(errorToast(error)));
  const swap = (index: number, other: number) => {
    const a = categories[index]!;
    const b = categories[other]!;
    void act(Promise.all([moveCategory(a.id, other), moveCategory(b.id, index)]).then(() => undefined));
  };
  const nextPosition = categories.reduce((most, category) => Math.max(most, category.position + 1), 0);
  return (
    <>
      <div className="d-flex align-items-center gap-2 mb-3">
        <p className="text-body-secondary mb-0 flex-grow-1">Every member sees a category unless you make it private to groups.</p>
        <Button variant="primary" onClick={() => setEditing('new')}>
          New category
        </Button>
      </div>
      <ol className="list-unstyled" aria-label="Categories">
        {categories.map((category, index) => (
          <li key={category.id} className="card mb-2">
            <div className="card-body d-flex flex-wrap align-items-start gap-2">
              <div className="flex-grow-1">
                <h3 className="h6 mb-1">
                  {clip(category.name, DISPLAY_CHARS.title)}{' '}
                  {category.archived && <span className="badge text-bg-secondary">Archived</span>}
                  {category.see !== null && <span className="badge text-bg-dark ms-1">Private</span>}
                </h3>
                {category.description && <p className="small text-body-secondary mb-1">{category.description}</p>}
                <p className="small mb-0">
                  Who can see: {audience(category.see, groups, 'Everyone')}. Who can post:{' '}
                  {audience(category.post, groups, 'everyone who can see it')}.
                </p>
              </div>
              <div className="d-flex gap-1">
                <Button
                  size="sm"
                  variant="outline-secondary"
                  aria-label={`Move ${category.name} up`}
                  disabled={index === 0}
                  onClick={() => swap(index, index - 1)}
                >
                  <IconArrowUp size={16} aria-hidden="true" />
                </Button>
                <Button
                  size="sm"
                  variant="outline-secondary"
                  aria-label={`Move ${category.name} down`}
                  disabled={index === categories.length - 1}
                  onClick={() => swap(index, index + 1)}
                >
                  <IconArrowDown size={16} aria-hidden="true" />
                </Button>
                <Button size="sm" variant="outline-secondary" aria-label={`Edit ${category.name}`} onClick={() => setEditing(category)}>
                  Edit
                </Button>
                <Button
                  size="sm"
                  variant={category.archived ? 'outline-primary' : 'outline-danger'}
                  aria-label={`${category.archived ? 'Bring back' : 'Archive'} ${category.name}`}
                  onClick={() => void act(archiveCategory(category.id, !category.archived))}
                >
                  {category.archived ? 'Bring back' : 'Archive'}
                </Button>
              </div>
            </div>
          </li>
        ))}
      </ol>
      {editing !== null && (
        <CategoryDialog
          category={editing === 'new' ? undefined : editing}
          groups={groups}
          position={nextPosition}
          show
          onHide={() => setEditing(null)}
        />
      )}
    </>
  );
}
