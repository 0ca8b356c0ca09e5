/** What a member types, and what it makes: shown under "Formatting help". */
const SYNTAX: { type: string; makes: string }[] = [
  { type: '**bold**', makes: 'bold text' },
  { type: '*italic*', makes: 'italic text' },
  { type: '[link](https://example.com)', makes: 'a link' },
  { type: '`code`', makes: 'code in a sentence' },
  { type: '```\ncode block\n```', makes: 'a block of code' },
  { type: '> quote', makes: 'a quotation' },
  { type: '- item', makes: 'a bulleted list' },
  { type: '1. item', makes: 'a numbered list' },
  { type: '| a | b |\n|---|---|\n| 1 | 2 |', makes: 'a table' },
];

/** The Markdown a post or reply understands, in a small panel (Escape or Close hides it). */
export function FormattingHelp({ id, onClose }: { id: string; onClose: () => void }) {
  return (
    <div
      id={id}
      className="app-md-help"
      role="region"
      aria-label="Formatting help"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        // Escape closes the help, not the dialog around it.
        event.stopPropagation();
        onClose();
      }}
    >
      <table className="app-md-help-table">
        <caption className="visually-hidden">Markdown you can use</caption>
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">To get</th>
          </tr>
        </thead>
        <tbody>
          {SYNTAX.map((row) => (
            <tr key={row.type}>
              <td>
                <code>{row.type}</code>
              </td>
              <td>{row.makes}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" className="btn btn-link btn-sm p-0" onClick={onClose}>
        Close help
      </button>
    </div>
  );
}
