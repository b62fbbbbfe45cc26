import { Toaster } from 'sonner';
import { TOAST } from '../../../src/constants.ts';
import { useTheme } from '../theme/theme-store.ts';

/** The toast outlet (offset 16, 3000 ms by default), in the theme shown. Loaded after first paint. */
export default function Toasts() {
  const { shown } = useTheme();
  return (
    <Toaster
      theme={shown}
      position="top-center"
      offset={TOAST.offset}
      duration={TOAST.defaultMs}
      dir={document.documentElement.dir === 'rtl' ? 'rtl' : 'ltr'}
    />
  );
}
