-- One record per choice, whichever server makes it.
ALTER TABLE disclosures ADD COLUMN choice TEXT;
CREATE UNIQUE INDEX disclosures_by_choice ON disclosures (choice);
