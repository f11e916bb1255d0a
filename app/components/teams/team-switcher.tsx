import { Check, ChevronsUpDown, Plus, UsersRound } from "lucide-react";
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
import { ROLE_LABELS, type TeamRole } from "~/lib/team-roles";

export interface SwitcherTeam {
  id: string;
  name: string;
  role: TeamRole;
}

/** The header's team switcher: every page acts within the team chosen here. */
export function TeamSwitcher({ current, teams }: { current: SwitcherTeam; teams: SwitcherTeam[] }) {
  const fetcher = useFetcher();
  const pending = fetcher.formData?.get("teamId");
  const shown = teams.find((t) => t.id === pending) ?? current;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" className="max-w-48 gap-2 sm:max-w-64" aria-label={`Current team: ${shown.name}. Switch team`}>
          <UsersRound className="size-4 shrink-0" aria-hidden="true" />
          <span className="truncate">{shown.name}</span>
          <ChevronsUpDown className="size-3.5 shrink-0 opacity-60" aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-64">
        <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">Your teams</DropdownMenuLabel>
        {teams.map((team) => (
          <DropdownMenuItem
            key={team.id}
            disabled={fetcher.state !== "idle"}
            onSelect={() => {
              if (team.id !== current.id) fetcher.submit({ teamId: team.id }, { method: "post", action: "/team/switch" });
            }}
          >
            <Check className={team.id === current.id ? "opacity-100" : "opacity-0"} aria-hidden="true" />
            <span className="truncate">{team.name}</span>
            <span className="ml-auto text-xs text-muted-foreground">{ROLE_LABELS[team.role]}</span>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/team">
            <UsersRound aria-hidden="true" /> Manage team
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/team#new-team">
            <Plus aria-hidden="true" /> Create team
          </Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
