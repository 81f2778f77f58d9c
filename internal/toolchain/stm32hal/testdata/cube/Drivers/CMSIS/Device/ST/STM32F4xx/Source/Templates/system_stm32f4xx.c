/* stand-in: argv tests only */
