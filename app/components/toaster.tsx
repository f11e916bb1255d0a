import { useEffect } from "react";
import { Toaster as Sonner } from "sonner";
import { TOAST_DURATION_MS } from "~/lib/site";
import { showToast, type Toast } from "~/lib/toast";
import { useTheme } from "~/components/theme/theme-provider";

/** Spec: one toast at a time, 5000 ms, bottom-right, Alt+T, a close button labelled "Close toast". */
export function Toaster({ flash }: { flash: Toast | null }) {
  const { theme } = useTheme();
  useEffect(() => {
    if (!flash) return;
    // Deferred a tick so a toast raised while the page hydrates is not lost.
    const timer = setTimeout(() => showToast(flash), 0);
    return () => clearTimeout(timer);
  }, [flash]);
  return (
    <Sonner
      theme={theme}
      position="bottom-right"
      visibleToasts={1}
      duration={TOAST_DURATION_MS}
      hotkey={["altKey", "KeyT"]}
      containerAriaLabel="Notifications"
      closeButton
      richColors
    />
  );
}
