import { Card, CardContent } from "~/components/ui/card";
import { Skeleton } from "~/components/ui/skeleton";

/** Spec: three placeholder cards while the user list loads. */
export function UsersSkeleton() {
  return (
    <div className="space-y-3" aria-busy="true" aria-label="Loading users">
      {[0, 1, 2].map((i) => (
        <Card key={i} data-testid="user-skeleton">
          <CardContent className="flex items-center gap-3 p-4">
            <Skeleton className="size-10 rounded-full" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-4 w-40" />
              <Skeleton className="h-3 w-24" />
            </div>
            <Skeleton className="h-9 w-28" />
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
