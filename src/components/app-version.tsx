/** The running version, so support and the update prompt can tell builds apart. */
export function AppVersion() {
  return (
    <span className="app-version" data-build={__BUILD_ID__}>
      Version {__APP_VERSION__} ({__BUILD_ID__})
    </span>
  );
}
