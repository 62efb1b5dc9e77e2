// The page opened once, on install.
import { localizePage } from '../ui/i18n';

localizePage();
