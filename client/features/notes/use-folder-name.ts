import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../trpc.ts';

/** The name of the folder the list is narrowed to ("Folder" until the folders have loaded). */
export function useFolderName(folderId: string | null): string {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const folders = useQuery({ ...trpc.folders.list.queryOptions(), enabled: folderId !== null });
  return folders.data?.find((f) => f.id === folderId)?.name ?? t('nav.folder');
}
