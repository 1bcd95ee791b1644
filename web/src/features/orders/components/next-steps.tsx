import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

const STEPS = [
  { title: 'Check your email', text: 'Your license keys and download links are on their way to your inbox.' },
  {
    title: 'Download your software',
    text: 'Follow the links in the email to download the official installer.',
  },
  { title: 'Activate with your license key', text: 'Enter the key when the software asks for it.' },
];

export function NextSteps() {
  return (
    <Card aria-labelledby="next-steps">
      <CardHeader>
        <CardTitle id="next-steps">Next Steps</CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-4">
          {STEPS.map((step, index) => (
            <li key={step.title} className="flex gap-3">
              <span
                aria-hidden="true"
                className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
              >
                {index + 1}
              </span>
              <div>
                <p className="font-medium">{step.title}</p>
                <p className="text-sm text-muted-foreground">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
