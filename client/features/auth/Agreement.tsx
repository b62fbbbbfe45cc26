import { Trans } from 'react-i18next';

/** "By continuing you agree to the Terms of Service and the Privacy Policy." */
export function Agreement() {
  return (
    <p className="form-note agreement">
      <Trans
        i18nKey="auth.agreement"
        components={{
          // biome-ignore lint/a11y/useAnchorContent: <Trans> puts the translated words inside.
          terms: <a href="/terms" target="_blank" rel="noopener" />,
          // biome-ignore lint/a11y/useAnchorContent: <Trans> puts the translated words inside.
          privacy: <a href="/privacy" target="_blank" rel="noopener" />,
        }}
      />
    </p>
  );
}
