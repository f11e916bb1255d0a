import { LogOut, Settings, User } from "lucide-react";
import { Link, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { initials } from "~/lib/initials";

export interface UserMenuUser {
  displayName: string | null;
  email: string | null;
  avatarUrl: string | null;
}

export function UserAvatar({ user, className = "size-8" }: { user: UserMenuUser; className?: string }) {
  return (
    // Decorative: the name sits beside it or in the control's label, so the initials are not read out.
    <span
      aria-hidden
      className={`${className} inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary/15 text-xs font-semibold text-primary`}
    >
      {user.avatarUrl ? (
        <img src={user.avatarUrl} alt="" className="size-full object-cover" referrerPolicy="no-referrer" />
      ) : (
        initials(user.displayName, user.email)
      )}
    </span>
  );
}

export function UserMenu({ user }: { user: UserMenuUser }) {
  const fetcher = useFetcher();

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="rounded-full">
          <span className="sr-only">User menu</span>
          <UserAvatar user={user} />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="font-normal">
          <div className="flex flex-col gap-0.5">
            <span className="truncate text-sm font-medium">{user.displayName ?? "User"}</span>
            <span className="truncate text-xs text-muted-foreground">{user.email ?? ""}</span>
          </div>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/settings">
            <Settings /> Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/">
            <User /> Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          onSelect={() => fetcher.submit(null, { method: "post", action: "/auth/sign-out" })}
          disabled={fetcher.state !== "idle"}
        >
          <LogOut /> Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
