import { DropdownMenu } from 'radix-ui';
import { NotesIcon } from './note-icons.tsx';

export interface RowMenuItem {
  label: string;
  onSelect: () => void;
  danger?: boolean;
}

/** The "⋯" menu beside a sidebar row (a folder, a tag). */
export function RowMenu({ label, items }: { label: string; items: RowMenuItem[] }) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="icon-button nav-more" aria-label={label}>
        <NotesIcon name="more" size={16} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end">
          {items.map((item) => (
            <DropdownMenu.Item
              key={item.label}
              className={item.danger ? 'menu-item menu-danger' : 'menu-item'}
              onSelect={item.onSelect}
            >
              {item.label}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
